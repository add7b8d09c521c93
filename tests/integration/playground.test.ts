/**
 * The playground key is created by the owner's click (never by a call), stored only sealed, reused, replaceable once
 * revoked; a playground call goes through the in-process gateway and is metered against that key.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { accountWithKey } from "../helpers/accounts";
import { seedDemoMarket } from "../../lib/market/demo-market-writer";
import { startGateway, type Gateway } from "../../lib/server/gateway";
import { createPlaygroundKey, playgroundKey, playgroundKeyInfo } from "../../lib/domain/playground";
import { changeKeyStatus } from "../../lib/domain/keys";
import { systemActor } from "../../lib/domain/audit";
import { DomainError } from "../../lib/domain/errors";
import { callGateway } from "../../lib/server/playground-gateway";
import { digestKey } from "../../lib/keys/format";
import { requestLog, usageSummary } from "../../lib/domain/usage";

process.env.AUTH_SECRET ??= "integration-test-secret-0123456789";
process.env.DEMO_TICKER = "off";
process.env.LOG_LEVEL = "warn";

let t: TestDatabase;
let gateway: Gateway;
const actor = { type: "user" as const, id: "test-user" };

describe("playground key and calls", () => {
  before(async () => {
    t = await createTestDatabase("playground");
    await seedDemoMarket(t.db, { seed: "options-research-demo-v1", now: new Date() });
    gateway = await startGateway({ databaseUrl: t.url, poolMax: 4, demoTicker: false });
  });
  after(async () => {
    await gateway?.close();
    await t?.drop();
  });

  it("is created only by the owner's click, as a Sandbox test key stored sealed; a call never creates one", async () => {
    const { accountId } = await accountWithKey(t.db);
    assert.equal(await playgroundKeyInfo(t.db, accountId), null);
    await assert.rejects(
      playgroundKey(t.db, accountId),
      (e: unknown) => e instanceof DomainError && e.code === "invalid" && e.detail.field === "key",
    );
    assert.equal(await playgroundKeyInfo(t.db, accountId), null, "asking for the key made none");
    const first = await createPlaygroundKey(t.db, accountId, actor);
    assert.match(first.key, /^svc_test_/);
    assert.deepEqual([first.env, first.plan], ["test", "sandbox"]);
    const [row] =
      await t.sql`select p.sealed_key, k.digest, k.name, k.env from playground_keys p join api_keys k on k.id = p.key_id where p.account_id = ${accountId}`;
    assert.ok(!row.sealed_key.includes(first.key.slice(9, 20)), "the stored value does not contain the key");
    assert.equal(row.digest, digestKey(first.key));
    assert.deepEqual([row.name, row.env], ["Playground", "test"]);
    const used = await playgroundKey(t.db, accountId);
    assert.deepEqual(used, { keyId: first.keyId, prefix: first.prefix, key: first.key });
    assert.deepEqual(await playgroundKeyInfo(t.db, accountId), { keyId: first.keyId, prefix: first.prefix });
    await assert.rejects(
      createPlaygroundKey(t.db, accountId, actor),
      (e: unknown) => e instanceof DomainError && e.code === "conflict",
    );
  });

  it("a revoked playground key is gone until the owner creates another", async () => {
    const { accountId } = await accountWithKey(t.db);
    const first = await createPlaygroundKey(t.db, accountId, actor);
    await changeKeyStatus(t.db, first.keyId, "revoke", systemActor("test"));
    assert.equal(await playgroundKeyInfo(t.db, accountId), null);
    await assert.rejects(playgroundKey(t.db, accountId), (e: unknown) => e instanceof DomainError);
    const second = await createPlaygroundKey(t.db, accountId, actor);
    assert.notEqual(second.keyId, first.keyId);
    assert.equal((await playgroundKey(t.db, accountId)).keyId, second.keyId);
  });

  it("concurrent creations store one key; the others are refused and leave no active key behind", async () => {
    const { accountId } = await accountWithKey(t.db);
    const results = await Promise.allSettled([1, 2, 3].map(() => createPlaygroundKey(t.db, accountId, actor)));
    const made = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    assert.equal(made.length, 1);
    for (const r of results)
      if (r.status === "rejected") assert.ok(r.reason instanceof DomainError && r.reason.code === "conflict");
    const info = await playgroundKeyInfo(t.db, accountId);
    const active =
      await t.sql`select id from api_keys where account_id = ${accountId} and name = 'Playground' and status = 'active'`;
    assert.deepEqual(
      active.map((r) => r.id),
      [info!.keyId],
    );
    assert.equal(made[0].keyId, info!.keyId);
  });

  it("a playground call goes through the gateway and is metered against the playground key", async () => {
    const { accountId } = await accountWithKey(t.db);
    await createPlaygroundKey(gateway.database.db, accountId, actor);
    const key = () => playgroundKey(gateway.database.db, accountId).then((k) => k.key);
    const res = await callGateway(
      gateway.handle,
      "http://portal.test",
      { operation: "GET /api/v1/ticker/{symbol}/summary", params: { symbol: "aapl" }, query: {} },
      key,
    );
    assert.equal(res.status, 200);
    assert.equal(res.path, "/api/v1/ticker/aapl/summary");
    assert.match(res.headers.ratelimit, /"minute";r=9/);
    const body = res.body as { meta: { is_mock: boolean; data_freshness: string } };
    assert.deepEqual([body.meta.is_mock, body.meta.data_freshness], [true, "demo"]);
    const info = await playgroundKeyInfo(t.db, accountId);
    const log = await requestLog(t.db, accountId);
    assert.deepEqual(
      log.entries.map((e) => [e.keyId, e.requestId, e.status]),
      [[info!.keyId, res.headers["x-request-id"], 200]],
    );
    const summary = await usageSummary(t.db, accountId);
    assert.equal(summary.quotas.find((q) => q.env === "test")!.familyA.used, 1);
    assert.equal(summary.keyCalls.find((k) => k.keyId === info!.keyId)!.quotaA, 1);

    const b = await callGateway(
      gateway.handle,
      "http://portal.test",
      { operation: "GET /api/v1/data/yield-curve", params: {}, query: {} },
      key,
    );
    assert.equal(b.status, 200);
    assert.deepEqual(
      [(b.body as { isMockData: boolean }).isMockData, (b.body as { dataLabel: string }).dataLabel],
      [true, "demo"],
    );
  });

  it("a pasted key is used as given; unknown operations and missing path values are refused", async () => {
    const bad = await callGateway(
      gateway.handle,
      "http://portal.test",
      { operation: "GET /api/v1/data/yield-curve", params: {}, query: {} },
      async () => "svc_test_notarealkey",
    );
    assert.equal(bad.status, 401);
    assert.equal((bad.body as { error: { code: string } }).error.code, "invalid_api_key");
    const never = async () => assert.fail("no key needed");
    await assert.rejects(
      callGateway(gateway.handle, "http://x", { operation: "GET /etc/passwd", params: {}, query: {} }, never),
      (e: unknown) => e instanceof DomainError && e.detail.field === "operation",
    );
    await assert.rejects(
      callGateway(
        gateway.handle,
        "http://x",
        { operation: "GET /api/v1/ticker/{symbol}/summary", params: {}, query: {} },
        never,
      ),
      (e: unknown) => e instanceof DomainError && e.detail.field === "symbol",
    );
    const health = await callGateway(
      gateway.handle,
      "http://x",
      { operation: "GET /api/v1/health", params: {}, query: {} },
      never,
    );
    assert.equal(health.status, 200);
  });
});
