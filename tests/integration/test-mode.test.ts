/**
 * Test mode mirrors live (docs/api-contract.md §3), against the real standalone server on PostgreSQL: a test key keeps
 * Sandbox's limits (`meta.plan`, the per-minute burst) and demo data, but has its account plan's features: webhooks,
 * streams per key, the family B body size. Feature errors name the account's plan, in the one "A (B)" form.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { startApiServer, type RunningServer } from "../helpers/api-server";
import { accountWithKey } from "../helpers/accounts";
import { seedReferenceData } from "../../lib/domain/seed";
import { endpointCatalogue } from "../../lib/api/routes";
import { streamsPerKey } from "../../lib/domain/plans-catalogue";
import { openSse } from "../helpers/sse";
import { streamUsage } from "../../lib/domain/stream-usage";

const HOOK = {
  url: "https://127.0.0.1:9/hook",
  events: ["no_trade.decision_changed"],
  symbols: ["SPY"],
};

describe("test mode mirrors live", () => {
  let t: TestDatabase;
  let server: RunningServer;

  before(async () => {
    t = await createSeededTestDatabase("test_mode", { seed: "options-research-demo-v1", now: new Date() });
    await seedReferenceData(t.db, endpointCatalogue());
    server = await startApiServer(t.url, { WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" });
  });
  after(async () => {
    await server?.stop();
    await t?.drop();
  });

  const call = (key: string, path: string, init: RequestInit = {}) =>
    fetch(`${server.baseUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...init.headers },
    });

  it("a Pro account's test key registers a webhook (201); Sandbox and Starter accounts' test keys get 403 naming their plan", async () => {
    const pro = await accountWithKey(t.db, { plan: "pro", env: "test" });
    const created = await call(pro.key, "/api/v1/alerts", { method: "POST", body: JSON.stringify(HOOK) });
    const body = await created.json();
    assert.equal(created.status, 201, JSON.stringify(body));
    assert.equal(body.isMockData, true);
    assert.equal(body.dataLabel, "demo");
    const [row] = await t.sql`select env, key_id from webhooks where account_id = ${pro.accountId}::uuid`;
    assert.deepEqual({ ...row }, { env: "test", key_id: pro.keyId }, "a test webhook: demo events");

    for (const [plan, named] of [
      ["sandbox", "Sandbox (Free Sandbox)"],
      ["starter", "Starter (API Starter)"],
    ]) {
      const c = await accountWithKey(t.db, { plan, env: "test" });
      const res = await call(c.key, "/api/v1/alerts", { method: "POST", body: JSON.stringify(HOOK) });
      const refused = await res.json();
      assert.equal(res.status, 403);
      assert.equal(refused.error.code, "subscription_required");
      assert.equal(
        refused.error.message,
        `Webhooks need the Pro (API Pro) or Enterprise (API Business) plan; the plan in force is ${named}.`,
      );
    }
  });

  it("keeps Sandbox's limits and label for a Pro account's test key: meta.plan Sandbox, Sandbox's burst", async () => {
    const pro = await accountWithKey(t.db, { plan: "pro", env: "test" });
    const res = await call(pro.key, "/api/v1/ticker/SPY/summary");
    const body = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(body.meta.plan, "Sandbox");
    assert.equal(body.meta.environment, "test");
    assert.equal(body.meta.is_mock, true);
    const [sandbox] = await t.sql<{ a_per_minute: number }[]>`select a_per_minute from plans where id = 'sandbox'`;
    assert.equal(res.headers.get("x-ratelimit-limit"), String(sandbox.a_per_minute));
  });

  it("has the account plan's family B body size: a body over Sandbox's bound is read for a Pro test key", async () => {
    const [{ sandbox }] = await t.sql<{ sandbox: number }[]>`
      select b_max_payload_bytes as sandbox from plans where id = 'sandbox'`;
    const body = JSON.stringify({ ...HOOK, description: "x" }) + " ".repeat(sandbox);
    const pro = await accountWithKey(t.db, { plan: "pro", env: "test" });
    const accepted = await call(pro.key, "/api/v1/alerts", { method: "POST", body });
    assert.equal(accepted.status, 201, await accepted.text());
    const sand = await accountWithKey(t.db, { plan: "sandbox", env: "test" });
    const refused = await call(sand.key, "/api/v1/alerts", { method: "POST", body });
    assert.equal(refused.status, 413);
    assert.equal((await refused.json()).error.code, "payload_too_large");
  });

  it("has the account plan's streams per key: a Pro test key holds more than Sandbox's number", async () => {
    const pro = await accountWithKey(t.db, { plan: "pro", env: "test" });
    const beyond = streamsPerKey("sandbox") + 1;
    assert.ok(beyond <= streamsPerKey("pro"));
    const streams = [];
    try {
      for (let i = 0; i < beyond; i++) {
        const s = await openSse(server.baseUrl, pro.key, "events=flow.sweep");
        streams.push(s);
        assert.equal(s.res.status, 200, `stream ${i + 1} of ${beyond}`);
      }
      // The portal's stream usage shows the same limit for the key.
      const usage = await streamUsage(t.db, pro.accountId);
      const row = usage.keys.find((k) => k.keyId === pro.keyId);
      assert.equal(row?.limit, streamsPerKey("pro"));
    } finally {
      for (const s of streams) s.close();
    }
  });
});
