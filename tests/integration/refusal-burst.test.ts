/**
 * Issue 30 item 1, against a real API server process: every refusal of a known key (inactive key, body too large,
 * pending licensing, malformed / reused / in-use Idempotency-Key) takes a burst unit, so a Sandbox test key (5 calls a
 * minute in family B) gets its refusal 5 times and then 429 with Retry-After, never counts against the quota, and each
 * call is metered once, in the admission batch, with the status it was answered (docs/api-contract.md §4).
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { startApiServer, type RunningServer } from "../helpers/api-server";
import { accountWithKey } from "../helpers/accounts";
import { minuteHeadroom } from "../helpers/clients-server";

let t: TestDatabase;
let server: RunningServer;

const SUMMARY = "/api/v1/ai/symbol/AAPL/summary";
const OUTPUTS = "/api/v1/outputs";
const strategy = { symbol: "AAPL", strategy: "long_call" };

async function call(key: string, method: string, path: string, init: { body?: string; idem?: string } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  if (init.idem !== undefined) headers["idempotency-key"] = init.idem;
  const res = await fetch(server.baseUrl + path, { method, headers, body: init.body });
  const body = (await res.json()) as { error?: { code: string } };
  return { status: res.status, code: body.error?.code ?? null, headers: res.headers };
}

/** `n` calls, `parallel` at a time; the answers' status and error code, counted. */
async function flood(n: number, parallel: number, one: () => ReturnType<typeof call>) {
  const counts = new Map<string, number>();
  let retryAfterMissing = 0;
  for (let sent = 0; sent < n; sent += parallel) {
    const answers = await Promise.all(Array.from({ length: Math.min(parallel, n - sent) }, one));
    for (const a of answers) {
      const k = `${a.status} ${a.code}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
      if (a.status === 429 && !a.headers.get("retry-after")) retryAfterMissing++;
    }
  }
  return { counts: Object.fromEntries(counts), retryAfterMissing };
}

const eventsOf = async (keyId: string) =>
  Object.fromEntries(
    (
      await t.sql<
        { k: string; n: number }[]
      >`select status || ' ' || coalesce(error_code, 'null') as k, count(*)::int as n
        from usage_events where key_id = ${keyId} group by 1`
    ).map((r) => [r.k, r.n]),
  );
const quotaUsed = async (keyId: string) =>
  (
    await t.sql<{ n: number }[]>`select coalesce(max(count), 0)::int as n from usage_counters
      where key_id in (${keyId}, quota_counter_key(${keyId})) and bucket = 'B:day'`
  )[0].n;

describe("refusals of a known key count against the per-minute burst", () => {
  before(async () => {
    t = await createTestDatabase("refusal_burst");
    server = await startApiServer(t.url);
  });
  after(async () => {
    await server?.stop();
    await t?.drop();
  });

  const cases: [string, () => Promise<{ keyId: string; one: () => ReturnType<typeof call> }>, string][] = [
    [
      "inactive key (403 inactive_key)",
      async () => {
        const a = await accountWithKey(t.db);
        await t.sql`update api_keys set status = 'inactive' where id = ${a.keyId}`;
        return { keyId: a.keyId, one: () => call(a.key, "GET", SUMMARY) };
      },
      "403 inactive_key",
    ],
    [
      "pending licensing (403 endpoint_pending_licensing)",
      async () => {
        const a = await accountWithKey(t.db);
        await t.sql`update endpoint_licensing set state = 'pending_licensing' where endpoint_id = ${`GET ${"/api/v1/ai/symbol/{ticker}/summary"}`} and env = 'test'`;
        return { keyId: a.keyId, one: () => call(a.key, "GET", SUMMARY) };
      },
      "403 endpoint_pending_licensing",
    ],
    [
      "body over the plan's payload (413 payload_too_large)",
      async () => {
        const a = await accountWithKey(t.db);
        const body = JSON.stringify({ ...strategy, pad: "x".repeat(11 * 1024) });
        return { keyId: a.keyId, one: () => call(a.key, "POST", OUTPUTS, { body }) };
      },
      "413 payload_too_large",
    ],
    [
      "malformed Idempotency-Key (400 invalid_request)",
      async () => {
        const a = await accountWithKey(t.db);
        const body = JSON.stringify(strategy);
        return { keyId: a.keyId, one: () => call(a.key, "POST", OUTPUTS, { body, idem: "k".repeat(256) }) };
      },
      "400 invalid_request",
    ],
    [
      "Idempotency-Key reused with another body (422 idempotency_key_reused)",
      async () => {
        const a = await accountWithKey(t.db);
        await t.sql`insert into idempotency_keys (account_id, key, request_digest, state, created_at)
          values (${a.accountId}, ${`${a.keyId}\nreused`}, 'another-digest', 'in_progress', now())`;
        const body = JSON.stringify(strategy);
        return { keyId: a.keyId, one: () => call(a.key, "POST", OUTPUTS, { body, idem: "reused" }) };
      },
      "422 idempotency_key_reused",
    ],
  ];

  for (const [name, setUp, refusal] of cases) {
    it(`${name}: 5 refusals, then 429 with Retry-After; no quota; every call metered once`, async () => {
      await minuteHeadroom(20);
      const { keyId, one } = await setUp();
      const n = name.startsWith("inactive") ? 500 : 60;
      const { counts, retryAfterMissing } = await flood(n, 20, one);
      assert.deepEqual(counts, { [refusal]: 5, "429 rate_limit_exceeded": n - 5 });
      assert.equal(retryAfterMissing, 0);
      assert.equal(await quotaUsed(keyId), 0, "refusals never count against the quota");
      assert.deepEqual(await eventsOf(keyId), { [refusal]: 5, "429 rate_limit_exceeded": n - 5 });
    });
  }

  it("an Idempotency-Key still running (409 idempotency_key_in_use): 5 refusals, then 429", async () => {
    await minuteHeadroom(20);
    const a = await accountWithKey(t.db);
    const body = JSON.stringify(strategy);
    const { requestDigest } = await import("../../lib/api/idempotency");
    await t.sql`insert into idempotency_keys (account_id, key, request_digest, state, created_at)
      values (${a.accountId}, ${`${a.keyId}\nrunning`}, ${requestDigest("POST", OUTPUTS, body)}, 'in_progress', now())`;
    const { counts } = await flood(30, 10, () => call(a.key, "POST", OUTPUTS, { body, idem: "running" }));
    assert.deepEqual(counts, { "409 idempotency_key_in_use": 5, "429 rate_limit_exceeded": 25 });
  });
});
