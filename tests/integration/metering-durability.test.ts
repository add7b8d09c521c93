/**
 * docs/api-contract.md §4 metering: every call is metered (key, account, route, status, latency, time), nothing metered
 * is lost when
 * the process is killed, usage_daily agrees with usage_events, and key revocation reaches every process within the
 * key cache's lifetime.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { startApiServer, type RunningServer, errorCodeOf } from "../helpers/api-server";
import { accountWithKey } from "../helpers/accounts";
import { changeKeyStatus } from "../../lib/domain/keys";
import { requireAccountByEmail, setAccountStatus } from "../../lib/domain/accounts";
import { systemActor } from "../../lib/domain/audit";
import { generateKey } from "../../lib/keys/format";

const SUMMARY = "/api/v1/ticker/AAPL/summary";
const SUMMARY_ID = "GET /api/v1/ticker/{symbol}/summary";

let t: TestDatabase;
let victim: RunningServer; // KEY_CACHE_TTL_MS=0, SIGKILLed in (a)
let cached: RunningServer[] = []; // two processes with the default key cache (4 s)

const rid = (label: string) => `${label}-${randomBytes(8).toString("hex")}`;

async function call(
  baseUrl: string,
  path: string,
  opts: { key?: string; requestId?: string; method?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  if (opts.requestId) headers["x-request-id"] = opts.requestId;
  const res = await fetch(baseUrl + path, { method: opts.method ?? "GET", headers });
  const text = await res.text();
  const code = errorCodeOf(text);
  return { status: res.status, code, requestId: res.headers.get("x-request-id") };
}

async function eventsFor(requestIds: string[]) {
  return t.sql`select request_id, key_id, account_id::text as account_id, endpoint_id, path, status, error_code, latency_ms, created_at
    from usage_events where request_id = any(${requestIds})`;
}

describe("metering and key propagation (docs/api-contract.md §2, §4)", () => {
  before(async () => {
    t = await createSeededTestDatabase("metering", { seed: "options-research-demo-v1", now: new Date() });
    [victim, ...cached] = await Promise.all([
      startApiServer(t.url),
      startApiServer(t.url, { KEY_CACHE_TTL_MS: "4000" }),
      startApiServer(t.url, { KEY_CACHE_TTL_MS: "4000" }),
    ]);
    // The plan catalogue is seeded when a server starts; raise the Sandbox limits afterwards.
    const raised =
      await t.sql`update plans set a_per_minute = 1000000, a_per_month = 1000000000, b_per_minute = 1000000, b_per_day = 1000000000 where id = 'sandbox'`;
    assert.equal(raised.count, 1);
  });
  after(async () => {
    await Promise.all([victim, ...cached].filter(Boolean).map((s) => s.stop()));
    await t?.drop();
  });

  it("(a) SIGKILL under load: every 2xx the client received has its usage_events row", async (ctx) => {
    const k = await accountWithKey(t.db, { env: "test" });
    const paths = [SUMMARY, "/api/v1/data/yield-curve", "/api/v1/signal-score/MSFT", "/api/v1/ai/symbol/NVDA/no-trade"];
    const received: string[] = [];
    const otherStatuses: number[] = [];
    let failures = 0;
    let stop = false;
    const loop = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const id = `dur-${n}-${i}-${randomBytes(4).toString("hex")}`;
        try {
          const r = await call(victim.baseUrl, paths[(n + i) % paths.length], { key: k.key, requestId: id });
          if (r.status >= 200 && r.status < 300) {
            assert.equal(r.requestId, id, "the caller's X-Request-Id is echoed");
            received.push(id);
          } else otherStatuses.push(r.status);
        } catch {
          failures += 1; // in flight when the process died
          return;
        }
      }
    };
    const loops = Array.from({ length: 30 }, (_, n) => loop(n));
    await new Promise((r) => setTimeout(r, 2000));
    await victim.kill("SIGKILL");
    stop = true;
    await Promise.all(loops);
    assert.equal(victim.child.signalCode, "SIGKILL");
    assert.deepEqual(otherStatuses, [], "under raised limits every completed call was a 2xx");
    assert.ok(received.length >= 100, `load actually ran (${received.length} 2xx received)`);
    ctx.diagnostic(`${received.length} 2xx received, ${failures} calls in flight at SIGKILL`);

    const rows = await eventsFor(received);
    const byId = new Map(rows.map((r) => [r.request_id as string, r]));
    const missing = received.filter((id) => !byId.has(id));
    assert.deepEqual(missing, [], `${missing.length} of ${received.length} answered calls have no usage_events row`);
    assert.equal(rows.length, received.length, "one row per call, no duplicates");
    for (const r of rows) {
      assert.equal(r.status, 200);
      assert.equal(r.key_id, k.keyId);
    }
  });

  it("(b) a metered call records key, account, endpoint, status, latency and time", async () => {
    const k = await accountWithKey(t.db, { env: "test" });
    const started = Date.now();
    const a = rid("meter-a");
    const b = rid("meter-b");
    assert.equal(
      (await call(cached[0].baseUrl, "/api/v1/ticker/aapl/summary", { key: k.key, requestId: a })).status,
      200,
    );
    assert.equal(
      (await call(cached[1].baseUrl, "/api/v1/data/yield-curve", { key: k.key, requestId: b, headers: {} })).status,
      200,
    );
    const finished = Date.now();
    const rows = await eventsFor([a, b]);
    assert.equal(rows.length, 2);
    const byId = new Map(rows.map((r) => [r.request_id as string, r]));
    for (const [id, endpoint, path] of [
      [a, SUMMARY_ID, "/api/v1/ticker/aapl/summary"],
      [b, "GET /api/v1/data/yield-curve", "/api/v1/data/yield-curve"],
    ] as const) {
      const r = byId.get(id)!;
      assert.deepEqual(
        {
          key_id: r.key_id,
          account_id: r.account_id,
          endpoint_id: r.endpoint_id,
          path: r.path,
          status: r.status,
          error_code: r.error_code,
        },
        { key_id: k.keyId, account_id: k.accountId, endpoint_id: endpoint, path, status: 200, error_code: null },
      );
      assert.ok(r.latency_ms > 0 && r.latency_ms < 10_000, `latency_ms ${r.latency_ms}`);
      const at = new Date(r.created_at as string).getTime();
      assert.ok(at >= started - 1000 && at <= finished + 1000, `created_at ${r.created_at}`);
    }
  });

  it("(b) refused calls are metered: inactive key, inactive account, subscription_required, pending licensing, 429", async () => {
    const inactive = await accountWithKey(t.db, { env: "test" });
    await changeKeyStatus(t.db, inactive.keyId, "deactivate", systemActor("test"));
    const inactiveAccount = await accountWithKey(t.db, { env: "test" });
    await setAccountStatus(
      t.db,
      (await requireAccountByEmail(t.db, inactiveAccount.email)).accountId,
      "inactive",
      systemActor("test"),
    );
    const noSub = await accountWithKey(t.db, { env: "live", plan: "sandbox" });
    const pro = await accountWithKey(t.db, { env: "live", plan: "pro" });
    const limited = await accountWithKey(t.db, { env: "test" });
    const s = cached[0].baseUrl;

    const cases = [
      { who: inactive, path: SUMMARY, endpoint: SUMMARY_ID, status: 403, code: "inactive_key" },
      { who: inactiveAccount, path: SUMMARY, endpoint: SUMMARY_ID, status: 403, code: "inactive_key" },
      { who: noSub, path: SUMMARY, endpoint: SUMMARY_ID, status: 403, code: "subscription_required" },
      {
        who: pro,
        path: "/api/v1/options-flow",
        endpoint: "GET /api/v1/options-flow",
        status: 403,
        code: "endpoint_pending_licensing",
      },
    ];
    const ids: string[] = [];
    for (const c of cases) {
      const id = rid("refused");
      ids.push(id);
      const r = await call(s, c.path, { key: c.who.key, requestId: id });
      assert.deepEqual([r.status, r.code], [c.status, c.code], c.code);
    }

    // 429: a 2-per-minute B window for this moment (guard the minute boundary).
    await t.sql`update plans set b_per_minute = 2 where id = 'sandbox'`;
    try {
      if (60_000 - (Date.now() % 60_000) < 5000) await new Promise((r) => setTimeout(r, 6000));
      const limitedIds = [rid("lim"), rid("lim"), rid("lim")];
      const got = [];
      for (const id of limitedIds)
        got.push(await call(s, "/api/v1/data/market-sentiment", { key: limited.key, requestId: id }));
      assert.deepEqual(
        got.map((g) => g.status),
        [200, 200, 429],
      );
      const rows = await eventsFor(limitedIds);
      assert.deepEqual(
        limitedIds.map((id) => {
          const r = rows.find((x) => x.request_id === id)!;
          return [r.status, r.error_code, r.endpoint_id, r.path];
        }),
        [
          [200, null, "GET /api/v1/data/market-sentiment", "/api/v1/data/market-sentiment"],
          [200, null, "GET /api/v1/data/market-sentiment", "/api/v1/data/market-sentiment"],
          [429, "rate_limit_exceeded", "GET /api/v1/data/market-sentiment", "/api/v1/data/market-sentiment"],
        ],
      );
    } finally {
      await t.sql`update plans set b_per_minute = 1000000 where id = 'sandbox'`;
    }

    const rows = await eventsFor(ids);
    assert.equal(rows.length, cases.length, "one event per refused call");
    cases.forEach((c, i) => {
      const r = rows.find((x) => x.request_id === ids[i])!;
      assert.deepEqual(
        {
          key_id: r.key_id,
          account_id: r.account_id,
          endpoint_id: r.endpoint_id,
          path: r.path,
          status: r.status,
          error_code: r.error_code,
        },
        {
          key_id: c.who.keyId,
          account_id: c.who.accountId,
          endpoint_id: c.endpoint,
          path: c.path, // refused before the limits: metered by the admission batch, path included
          status: c.status,
          error_code: c.code,
        },
        c.code,
      );
      assert.ok(r.latency_ms > 0, `${c.code}: latency_ms ${r.latency_ms}`);
    });
    // Refusals of a known key take a burst unit each (issue 30: 429 once the minute is spent), never the quota.
    const refusedKeys = [inactive.keyId, inactiveAccount.keyId, noSub.keyId, pro.keyId];
    const [used] = await t.sql<{ burst: number; quota: number }[]>`
      select coalesce(sum(count) filter (where bucket like '%:minute'), 0)::int as burst,
        coalesce(sum(count) filter (where bucket not like '%:minute'), 0)::int as quota
      from usage_counters where key_id = any(${refusedKeys})`;
    assert.deepEqual(used, { burst: cases.filter((c) => refusedKeys.includes(c.who.keyId)).length, quota: 0 });
  });

  it("(b) unauthenticated calls, health and openapi are not metered", async () => {
    const k = await accountWithKey(t.db, { env: "test" });
    const revoked = await accountWithKey(t.db, { env: "test" });
    await changeKeyStatus(t.db, revoked.keyId, "revoke", systemActor("test"));
    const s = cached[1].baseUrl;
    const before = (await t.sql`select count(*)::int as n from usage_events`)[0].n as number;
    const checks: Array<[string, { key?: string; headers?: Record<string, string> }, number, string | null]> = [
      [SUMMARY, {}, 401, "missing_api_key"],
      [SUMMARY, { key: "svc_test_not-a-key" }, 401, "invalid_api_key"],
      [SUMMARY, { key: generateKey("test").key }, 401, "invalid_api_key"],
      [SUMMARY, { key: revoked.key }, 401, "invalid_api_key"],
      [SUMMARY, { key: k.key, headers: { "x-api-key": revoked.key } }, 400, "invalid_request"],
      ["/api/v1/health", { key: k.key }, 200, null],
      ["/api/v1/openapi.json", { key: k.key }, 200, null],
    ];
    const ids: string[] = [];
    for (const [path, opts, status, code] of checks) {
      const id = rid("unmetered");
      ids.push(id);
      const r = await call(s, path, { ...opts, requestId: id });
      assert.deepEqual([r.status, r.code], [status, code], `${path} ${JSON.stringify(opts.headers ?? {})}`);
    }
    assert.equal((await eventsFor(ids)).length, 0);
    const afterCount = (await t.sql`select count(*)::int as n from usage_events`)[0].n as number;
    assert.equal(afterCount, before);
    const counters = await t.sql`select * from usage_counters where key_id = any(${[k.keyId, revoked.keyId]})`;
    assert.equal(counters.length, 0, "no window used");
  });

  it("(c) usage_daily aggregates equal usage_events counts per key, day and endpoint", async () => {
    const fromEvents = await t.sql`
      select key_id, account_id::text as account_id, to_char((created_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day, endpoint_id,
        count(*)::int as calls, count(*) filter (where status between 200 and 299)::int as ok_calls,
        count(*) filter (where status between 400 and 499)::int as client_errors, count(*) filter (where status >= 500)::int as server_errors,
        sum(latency_ms)::float8 as latency
      from usage_events group by 1, 2, 3, 4 order by 1, 3, 4`;
    const daily = await t.sql`
      select key_id, account_id::text as account_id, to_char(day, 'YYYY-MM-DD') as day, endpoint_id, calls, ok_calls, client_errors, server_errors,
        latency_ms_sum as latency
      from usage_daily order by 1, 3, 4`;
    assert.ok(fromEvents.length >= 8, `aggregates exist (${fromEvents.length})`);
    const strip = (r: Record<string, unknown>) => ({ ...r, latency: undefined });
    assert.deepEqual(daily.map(strip), fromEvents.map(strip));
    daily.forEach((d, i) => {
      const e = fromEvents[i].latency as number;
      assert.ok(Math.abs((d.latency as number) - e) <= 0.01 + 1e-5 * e, `latency sum ${d.latency} vs ${e}`);
    });
    const totals = (await t.sql`select sum(calls)::int as c from usage_daily`)[0].c;
    assert.equal(totals, (await t.sql`select count(*)::int as n from usage_events`)[0].n);
  });

  it("(d) revocation and deactivation reach both processes within the key cache lifetime (4 s)", async () => {
    const rev = await accountWithKey(t.db, { env: "test" });
    const deact = await accountWithKey(t.db, { env: "test" });
    for (const s of cached) {
      for (const k of [rev, deact])
        assert.equal((await call(s.baseUrl, SUMMARY, { key: k.key })).status, 200, "works (and is cached) first");
    }
    await changeKeyStatus(t.db, rev.keyId, "revoke", systemActor("test"));
    await changeKeyStatus(t.db, deact.keyId, "deactivate", systemActor("test"));
    await new Promise((r) => setTimeout(r, 5000));
    for (const [i, s] of cached.entries()) {
      assert.deepEqual(
        Object.values(await call(s.baseUrl, SUMMARY, { key: rev.key })).slice(0, 2),
        [401, "invalid_api_key"],
        `revoked key on process ${i + 1}`,
      );
      assert.deepEqual(
        Object.values(await call(s.baseUrl, SUMMARY, { key: deact.key })).slice(0, 2),
        [403, "inactive_key"],
        `deactivated key on process ${i + 1}`,
      );
    }
    // Re-activation propagates the same way.
    await changeKeyStatus(t.db, deact.keyId, "activate", systemActor("test"));
    await new Promise((r) => setTimeout(r, 5000));
    for (const s of cached) assert.equal((await call(s.baseUrl, SUMMARY, { key: deact.key })).status, 200);
  });
});
