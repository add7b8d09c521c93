/**
 * The playground calls as one of the account's own keys, chosen by id (issue 28 item 4): the key must be the account's,
 * active, and one the member's role may use; the call acts as that key in process (no secret anywhere), through the
 * same pipeline, limits and metering as the key sent in a header. A pasted key is used as given.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { accountWithKey } from "../helpers/accounts";
import { startGateway, type Gateway } from "../../lib/server/gateway";
import { playgroundCredential, type PlaygroundCredential } from "../../lib/domain/playground";
import { changeKeyStatus, createKey } from "../../lib/domain/keys";
import { rollKey } from "../../lib/domain/key-roll";
import { systemActor } from "../../lib/domain/audit";
import { DomainError } from "../../lib/domain/errors";
import { callGateway } from "../../lib/server/playground-gateway";
import { usageSummary } from "../../lib/domain/usage";
import { requestLog } from "../../lib/domain/request-log";
import type { Role } from "../../lib/shared/roles";

process.env.AUTH_SECRET ??= "integration-test-secret-0123456789";
process.env.DEMO_TICKER = "off";
process.env.LOG_LEVEL = "warn";

let t: TestDatabase;
let gateway: Gateway;
const SUMMARY = { operation: "GET /api/v1/ticker/{symbol}/summary", params: { symbol: "aapl" }, query: {} };
const refused =
  (code: string, field = "keyId") =>
  (e: unknown) =>
    e instanceof DomainError && e.code === code && e.detail.field === field;

describe("playground calls as an own key", () => {
  before(async () => {
    t = await createSeededTestDatabase("playground", { seed: "options-research-demo-v1", now: new Date() });
    gateway = await startGateway({ databaseUrl: t.url, poolMax: 4, demoTicker: false });
  });
  after(async () => {
    await gateway?.close();
    await t?.drop();
  });

  const member = (accountId: string, role: Role = "owner") => ({ accountId, role });

  it("an own active key is chosen by id; another account's, a revoked, a rolled-out key or none are refused", async () => {
    const { accountId, keyId } = await accountWithKey(t.db);
    const other = await accountWithKey(t.db);
    assert.deepEqual(await playgroundCredential(t.db, member(accountId), { keyId }), { keyId });
    assert.deepEqual(await playgroundCredential(t.db, member(accountId), { key: "svc_test_x" }), { key: "svc_test_x" });
    await assert.rejects(playgroundCredential(t.db, member(accountId), {}), refused("invalid"));
    await assert.rejects(
      playgroundCredential(t.db, member(accountId), { keyId: other.keyId }),
      refused("not_found"),
      "another account's key is not found",
    );
    const spare = await createKey(t.db, { accountId, env: "test" }, systemActor("test"));
    await changeKeyStatus(t.db, spare.id, "revoke", systemActor("test"));
    await assert.rejects(playgroundCredential(t.db, member(accountId), { keyId: spare.id }), /revoked/);
    const rolled = await createKey(t.db, { accountId, env: "test" }, systemActor("test"));
    await rollKey(t.db, { accountId, userId: "test-user", keyId: rolled.id, overlap: "now" }, systemActor("test"));
    await assert.rejects(playgroundCredential(t.db, member(accountId), { keyId: rolled.id }), /expired/);
  });

  it("the member's role decides: a Developer uses test keys only, a Viewer none", async () => {
    const test = await accountWithKey(t.db, { plan: "pro" });
    const live = await createKey(t.db, { accountId: test.accountId, env: "live" }, systemActor("test"));
    const { accountId } = test;
    assert.deepEqual(await playgroundCredential(t.db, member(accountId, "developer"), { keyId: test.keyId }), {
      keyId: test.keyId,
    });
    await assert.rejects(
      playgroundCredential(t.db, member(accountId, "developer"), { keyId: live.id }),
      refused("forbidden"),
    );
    assert.deepEqual(await playgroundCredential(t.db, member(accountId, "admin"), { keyId: live.id }), {
      keyId: live.id,
    });
    await assert.rejects(
      playgroundCredential(t.db, member(accountId, "viewer"), { keyId: test.keyId }),
      refused("forbidden"),
    );
  });

  it("a call as an own key goes through the gateway, metered on that key, with no secret", async () => {
    const { accountId, keyId } = await accountWithKey(t.db);
    const own = async (): Promise<PlaygroundCredential> => ({ keyId });
    const res = await callGateway(gateway, "http://portal.test", SUMMARY, own);
    assert.equal(res.status, 200);
    assert.equal(res.path, "/api/v1/ticker/aapl/summary");
    assert.match(res.headers.ratelimit, /"minute";r=9/);
    const body = res.body as { meta: { is_mock: boolean; data_freshness: string } };
    assert.deepEqual([body.meta.is_mock, body.meta.data_freshness], [true, "demo"]);
    const log = await requestLog(t.db, accountId);
    assert.deepEqual(
      log.entries.map((e) => [e.keyId, e.requestId, e.status]),
      [[keyId, res.headers["x-request-id"], 200]],
    );
    const summary = await usageSummary(t.db, accountId);
    assert.equal(summary.quotas.find((q) => q.env === "test")!.familyA.used, 1);
    assert.equal(summary.keyCalls.find((k) => k.keyId === keyId)!.quotaA, 1);

    const b = await callGateway(
      gateway,
      "http://portal.test",
      { ...SUMMARY, operation: "GET /api/v1/data/yield-curve" },
      own,
    );
    assert.equal(b.status, 200);
    assert.deepEqual(
      [(b.body as { isMockData: boolean }).isMockData, (b.body as { dataLabel: string }).dataLabel],
      [true, "demo"],
    );
  });

  it("shares the key's limits with its header calls: the 11th call of a Sandbox minute is a 429 either way", async () => {
    const { keyId, key } = await accountWithKey(t.db);
    // The burst window is a fixed UTC minute: start well inside one so all 11 calls fall in it.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const credential = async (): Promise<PlaygroundCredential> => (i % 2 ? { keyId } : { key });
      statuses.push((await callGateway(gateway, "http://portal.test", SUMMARY, credential)).status);
    }
    assert.deepEqual(statuses, [...Array(10).fill(200), 429]);
  });

  it("the pipeline judges a delegated key like a header key: revoked 401, deactivated 403", async () => {
    const { accountId, keyId } = await accountWithKey(t.db);
    const spare = await createKey(t.db, { accountId, env: "test" }, systemActor("test"));
    await changeKeyStatus(t.db, spare.id, "deactivate", systemActor("test"));
    await changeKeyStatus(t.db, keyId, "revoke", systemActor("test"));
    const as = (id: string) =>
      gateway.handleAs(new Request("http://portal.test/api/v1/ticker/AAPL/summary"), id).then(async (r) => ({
        status: r.status,
        code: ((await r.json()) as { error: { code: string } }).error.code,
      }));
    assert.deepEqual(await as(keyId), { status: 401, code: "invalid_api_key" });
    assert.deepEqual(await as(spare.id), { status: 403, code: "inactive_key" });
    assert.deepEqual(await as("key_nosuchkey000000000000000"), { status: 401, code: "invalid_api_key" });
    const log = await requestLog(t.db, accountId);
    assert.deepEqual(
      log.entries.map((e) => [e.keyId, e.status]),
      [[spare.id, 403]],
      "the known, deactivated key's refusal is metered on it, as with a header",
    );
  });

  it("a pasted key is used as given; unknown operations and missing path values are refused", async () => {
    const bad = await callGateway(
      gateway,
      "http://portal.test",
      { operation: "GET /api/v1/data/yield-curve", params: {}, query: {} },
      async () => ({ key: "svc_test_notarealkey" }),
    );
    assert.equal(bad.status, 401);
    assert.equal((bad.body as { error: { code: string } }).error.code, "invalid_api_key");
    const never = async () => assert.fail("no key needed");
    await assert.rejects(
      callGateway(gateway, "http://x", { operation: "GET /etc/passwd", params: {}, query: {} }, never),
      (e: unknown) => e instanceof DomainError && e.detail.field === "operation",
    );
    await assert.rejects(
      callGateway(gateway, "http://x", { ...SUMMARY, params: {} }, never),
      (e: unknown) => e instanceof DomainError && e.detail.field === "symbol",
    );
    const health = await callGateway(
      gateway,
      "http://x",
      { operation: "GET /api/v1/health", params: {}, query: {} },
      never,
    );
    assert.equal(health.status, 200);
  });
});
