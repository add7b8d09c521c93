/**
 * docs/api-contract.md §4: per-minute burst and quota limits are exact under concurrency, across two server processes
 * sharing one
 * PostgreSQL database; only 2xx responses consume quota; the RateLimit / X-RateLimit-* headers tell the truth.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { startApiServer, type RunningServer, errorCodeOf } from "../helpers/api-server";
import { accountWithKey } from "../helpers/accounts";

const A_ROUTE = "/api/v1/ticker/AAPL/summary";
const B_ROUTE = "/api/v1/ai/symbol/AAPL/summary";

let t: TestDatabase;
let servers: RunningServer[] = [];

interface Hit {
  status: number;
  code: string | null;
  headers: Headers;
  path: string;
}

async function call(baseUrl: string, path: string, key: string, requestId?: string): Promise<Hit> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (requestId) headers["x-request-id"] = requestId;
  const res = await fetch(baseUrl + path, { headers });
  const text = await res.text();
  const code = errorCodeOf(text);
  return { status: res.status, code, headers: res.headers, path };
}

/** Fires every request at once, alternating between the two server processes. */
async function burst(paths: string[], key: string): Promise<Hit[]> {
  return Promise.all(paths.map((p, i) => call(servers[i % servers.length].baseUrl, p, key)));
}

/** Waits for the next UTC minute if fewer than `margin` seconds remain in this one. */
async function guardMinute(marginSeconds = 10): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < marginSeconds * 1000) await new Promise((r) => setTimeout(r, left + 250));
}

async function setSandbox(limits: { aPerMinute?: number; aPerMonth?: number; bPerMinute?: number; bPerDay?: number }) {
  const cur = (
    await t.sql`select a_per_minute, a_per_month, b_per_minute, b_per_day from plans where id = 'sandbox'`
  )[0];
  await t.sql`update plans set a_per_minute = ${limits.aPerMinute ?? cur.a_per_minute}, a_per_month = ${limits.aPerMonth ?? cur.a_per_month},
    b_per_minute = ${limits.bPerMinute ?? cur.b_per_minute}, b_per_day = ${limits.bPerDay ?? cur.b_per_day} where id = 'sandbox'`;
}

async function counters(keyId: string): Promise<Record<string, number>> {
  const rows = await t.sql`select bucket, count from usage_counters where key_id = ${keyId}`;
  return Object.fromEntries(rows.map((r) => [r.bucket as string, r.count as number]));
}

function tally(hits: Hit[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const h of hits) {
    const k = `${h.status}${h.code ? ` ${h.code}` : ""}`;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

/** Parses `"minute";r=7;t=42, "month";r=90;t=99` (or q/w for the policy) into { minute: {r:7,t:42}, ... }. */
function parseStructured(value: string | null): Record<string, Record<string, number>> {
  assert.ok(value, "header present");
  const out: Record<string, Record<string, number>> = {};
  for (const item of value.split(",")) {
    const [name, ...params] = item.trim().split(";");
    const m = /^"([^"]+)"$/.exec(name);
    assert.ok(m, `item name is a quoted string: ${item}`);
    out[m[1]] = Object.fromEntries(
      params
        // The partition key (pk=:…:, a byte sequence) says whose counter the window is; checked in usage-domain.test.ts.
        .filter((p) => {
          if (!p.startsWith("pk=")) return true;
          assert.match(p, /^pk=:[A-Za-z0-9+/]+=*:$/, `partition key in ${item}`);
          return false;
        })
        .map((p) => {
          const [k, v] = p.split("=");
          assert.match(v, /^\d+$/, `integer parameter in ${item}`);
          return [k, Number(v)];
        }),
    );
  }
  return out;
}

function secondsInMonth(d: Date): number {
  return (
    (Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)) / 1000
  );
}

describe("limits are exact across processes (docs/api-contract.md §4)", () => {
  before(async () => {
    t = await createSeededTestDatabase("limits", { seed: "options-research-demo-v1", now: new Date() });
    servers = await Promise.all([startApiServer(t.url), startApiServer(t.url)]);
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await t?.drop();
  });

  it("(a) 200 concurrent family A calls against 10/min on two processes: exactly 10 × 200, 190 × 429", async () => {
    await setSandbox({ aPerMinute: 10, aPerMonth: 100_000 });
    const k = await accountWithKey(t.db, { env: "test" });
    await guardMinute();
    const hits = await burst(
      Array.from({ length: 200 }, () => A_ROUTE),
      k.key,
    );
    assert.deepEqual(tally(hits), { "200": 10, "429 rate_limit_exceeded": 190 });
    const ok = hits.filter((h) => h.status === 200);
    // The admitted calls saw counts 1..10: remaining 9..0, each exactly once.
    assert.deepEqual(
      ok.map((h) => Number(h.headers.get("x-ratelimit-remaining"))).sort((x, y) => x - y),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    );
    for (const h of hits.filter((x) => x.status === 429)) {
      const retry = Number(h.headers.get("retry-after"));
      assert.ok(Number.isInteger(retry) && retry >= 1 && retry <= 60, `Retry-After ${h.headers.get("retry-after")}`);
    }
    const c = await counters(k.keyId);
    assert.equal(c["A:minute"], 10);
    assert.equal(c["A:month"], 10, "only the 10 admitted 2xx consumed quota");
    const [{ n }] = await t.sql`select count(*)::int as n from usage_events where key_id = ${k.keyId}`;
    assert.equal(n, 200, "every call metered");
  });

  it("(a') under concurrency every refusal reports 0 remaining (429: minute window; 403: quota window)", async () => {
    await setSandbox({ aPerMinute: 10, aPerMonth: 100_000 });
    const k = await accountWithKey(t.db, { env: "test" });
    await guardMinute();
    const hits = await burst(
      Array.from({ length: 200 }, () => A_ROUTE),
      k.key,
    );
    const refused = hits.filter((h) => h.status === 429);
    assert.equal(refused.length, 190);
    const problems: string[] = [];
    const xr = refused.map((h) => h.headers.get("x-ratelimit-remaining")).filter((r) => r !== "0");
    if (xr.length) problems.push(`${xr.length} of 190 × 429 say X-RateLimit-Remaining > 0 (${xr.join(",")})`);
    const minuteR = refused.map((h) => parseStructured(h.headers.get("ratelimit")).minute.r).filter((r) => r !== 0);
    if (minuteR.length)
      problems.push(`${minuteR.length} of 190 × 429 say RateLimit "minute";r > 0 (${minuteR.join(",")})`);

    // The same for quota refusals: a 403 plan_limit_exceeded must say the quota has 0 left.
    await setSandbox({ aPerMinute: 1000, aPerMonth: 7 });
    const q = await accountWithKey(t.db, { env: "test" });
    const qHits = await burst(
      Array.from({ length: 100 }, () => A_ROUTE),
      q.key,
    );
    const qRefused = qHits.filter((h) => h.status === 403);
    assert.equal(qRefused.length, 93);
    const monthR = qRefused.map((h) => parseStructured(h.headers.get("ratelimit")).month.r).filter((r) => r !== 0);
    if (monthR.length)
      problems.push(
        `${monthR.length} of 93 × 403 plan_limit_exceeded say RateLimit "month";r > 0 (${monthR.join(",")})`,
      );
    assert.deepEqual(problems, []);
  });

  it("(b) family B has its own window: 200 concurrent B calls at 5/min → 5 × 200 while 50 concurrent A calls → 10 × 200", async () => {
    await setSandbox({ aPerMinute: 10, aPerMonth: 100_000, bPerMinute: 5, bPerDay: 100_000 });
    const k = await accountWithKey(t.db, { env: "test" });
    await guardMinute();
    const paths = [...Array.from({ length: 200 }, () => B_ROUTE), ...Array.from({ length: 50 }, () => A_ROUTE)];
    // Interleave so A and B calls compete at the same moment.
    paths.sort(() => Math.random() - 0.5);
    const hits = await burst(paths, k.key);
    assert.deepEqual(tally(hits.filter((h) => h.path === B_ROUTE)), { "200": 5, "429 rate_limit_exceeded": 195 });
    assert.deepEqual(tally(hits.filter((h) => h.path === A_ROUTE)), { "200": 10, "429 rate_limit_exceeded": 40 });
    const c = await counters(k.keyId);
    assert.deepEqual(
      { aMin: c["A:minute"], bMin: c["B:minute"], aMonth: c["A:month"], bDay: c["B:day"] },
      { aMin: 10, bMin: 5, aMonth: 10, bDay: 5 },
    );
  });

  it("(c) quota counts only 2xx: 404 and 400 do not consume it; 3 × 200 then 403 plan_limit_exceeded", async () => {
    await setSandbox({ aPerMinute: 100, aPerMonth: 3 });
    const k = await accountWithKey(t.db, { env: "test" });
    await guardMinute();
    const s = servers[0].baseUrl;
    const seen: Hit[] = [];
    for (let i = 0; i < 4; i++) seen.push(await call(s, "/api/v1/ticker/ZZZZ/summary", k.key));
    for (let i = 0; i < 2; i++) seen.push(await call(servers[1].baseUrl, "/api/v1/ticker/1234/summary", k.key));
    assert.deepEqual(
      seen.map((h) => `${h.status} ${h.code}`),
      [...Array(4).fill("404 symbol_not_found"), ...Array(2).fill("400 invalid_request")],
    );
    assert.equal((await counters(k.keyId))["A:month"] ?? 0, 0, "no quota consumed by 404/400");
    for (let i = 0; i < 3; i++) {
      const h = await call(servers[i % 2].baseUrl, A_ROUTE, k.key);
      assert.equal(h.status, 200, `call ${i + 1} of 3 is admitted`);
      assert.equal(parseStructured(h.headers.get("ratelimit")).month.r, 2 - i);
    }
    const over = await call(s, A_ROUTE, k.key);
    assert.equal(over.status, 403);
    assert.equal(over.code, "plan_limit_exceeded");
    assert.equal(parseStructured(over.headers.get("ratelimit")).month.r, 0);
    assert.equal(parseStructured(over.headers.get("ratelimit-policy")).month.q, 3);

    const c = await counters(k.keyId);
    assert.equal(c["A:month"], 3, "quota row holds the 3 successful calls");
    assert.equal(c["A:minute"], 10, "every call that passed licensing counts against the burst window");
    const monthStart = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
    const [row] = await t.sql`select window_start from usage_counters where key_id = ${k.keyId} and bucket = 'A:month'`;
    assert.equal(
      new Date(row.window_start as string).getTime(),
      monthStart.getTime(),
      "month window starts at 00:00 UTC on the 1st",
    );
    const events = await t.sql`select status, error_code from usage_events where key_id = ${k.keyId} order by id`;
    assert.deepEqual(
      events.map((e) => `${e.status} ${e.error_code}`),
      [
        ...Array(4).fill("404 symbol_not_found"),
        ...Array(2).fill("400 invalid_request"),
        ...Array(3).fill("200 null"),
        "403 plan_limit_exceeded",
      ],
    );
  });

  it("(c') quota is exact under concurrency: 50 concurrent calls at quota 7 → exactly 7 × 200", async () => {
    await setSandbox({ aPerMinute: 1000, aPerMonth: 7 });
    const k = await accountWithKey(t.db, { env: "test" });
    await guardMinute();
    const hits = await burst(
      Array.from({ length: 50 }, () => A_ROUTE),
      k.key,
    );
    assert.deepEqual(tally(hits), { "200": 7, "403 plan_limit_exceeded": 43 });
    const ok = hits.filter((h) => h.status === 200).map((h) => parseStructured(h.headers.get("ratelimit")).month.r);
    assert.deepEqual(
      ok.sort((x, y) => x - y),
      [0, 1, 2, 3, 4, 5, 6],
    );
    const c = await counters(k.keyId);
    assert.equal(c["A:month"], 7);
    assert.equal(c["A:minute"], 50);
  });

  it("(c'') family B daily quota is exact under concurrency and ignores 404s", async () => {
    await setSandbox({ bPerMinute: 1000, bPerDay: 4 });
    const k = await accountWithKey(t.db, { env: "test" });
    await guardMinute();
    const paths = [
      ...Array.from({ length: 30 }, () => B_ROUTE),
      ...Array.from({ length: 10 }, () => "/api/v1/ai/symbol/ZZZZ/summary"),
    ];
    paths.sort(() => Math.random() - 0.5);
    const hits = await burst(paths, k.key);
    assert.deepEqual(tally(hits.filter((h) => h.path === B_ROUTE)), { "200": 4, "403 plan_limit_exceeded": 26 });
    const c = await counters(k.keyId);
    assert.equal(c["B:day"], 4);
    const dayStart = new Date(new Date().toISOString().slice(0, 10) + "T00:00:00Z");
    const [row] = await t.sql`select window_start from usage_counters where key_id = ${k.keyId} and bucket = 'B:day'`;
    assert.equal(new Date(row.window_start as string).getTime(), dayStart.getTime());
  });

  it("(c''') failing account-state calls (GET /alerts → 403 on Sandbox) do not take quota from concurrent calls", async () => {
    // The alerts routes are admitted first and refunded when the handler fails; while they hold a unit, concurrent
    // calls must not be refused. 3 rounds, each: quota 3, 40 × GET /alerts (all fail) + 10 × yield-curve at once.
    await setSandbox({ bPerMinute: 100_000, bPerDay: 3 });
    const rounds: Array<{ ok: number; counter: number; alerts: Record<string, number> }> = [];
    for (let round = 0; round < 3; round++) {
      const k = await accountWithKey(t.db, { env: "test" });
      await guardMinute(5);
      const paths = [
        ...Array.from({ length: 40 }, () => "/api/v1/alerts"),
        ...Array.from({ length: 10 }, () => "/api/v1/data/yield-curve"),
      ];
      paths.sort(() => Math.random() - 0.5);
      const hits = await burst(paths, k.key);
      rounds.push({
        ok: hits.filter((h) => h.path === "/api/v1/data/yield-curve" && h.status === 200).length,
        counter: (await counters(k.keyId))["B:day"] ?? 0,
        alerts: tally(hits.filter((h) => h.path === "/api/v1/alerts")),
      });
    }
    for (const r of rounds) {
      for (const code of Object.keys(r.alerts)) assert.match(code, /^403 (subscription_required|plan_limit_exceeded)$/);
    }
    assert.deepEqual(
      rounds.map((r) => [r.ok, r.counter]),
      [
        [3, 3],
        [3, 3],
        [3, 3],
      ],
      JSON.stringify(rounds),
    );
  });

  it("(d) RateLimit-Policy, RateLimit and X-RateLimit-* values: remaining = limit − used (family A)", async () => {
    await setSandbox({ aPerMinute: 10, aPerMonth: 100 });
    const k = await accountWithKey(t.db, { env: "test" });
    await guardMinute(15);
    const months = secondsInMonth(new Date());
    let quotaUsed = 0;
    for (let i = 1; i <= 11; i++) {
      const notFound = i === 4; // a 404 uses the burst window but not the quota
      const before = Date.now();
      const h = await call(servers[i % 2].baseUrl, notFound ? "/api/v1/ticker/ZZZZ/summary" : A_ROUTE, k.key);
      const after = Date.now();
      if (i <= 10) assert.equal(h.status, notFound ? 404 : 200, `call ${i}`);
      else assert.deepEqual([h.status, h.code], [429, "rate_limit_exceeded"]);
      if (h.status === 200) quotaUsed += 1;
      const minuteEnd = Math.floor(before / 60_000) * 60 + 60;
      assert.deepEqual(parseStructured(h.headers.get("ratelimit-policy")), {
        minute: { q: 10, w: 60 },
        month: { q: 100, w: months },
      });
      const rl = parseStructured(h.headers.get("ratelimit"));
      const usedBurst = Math.min(i, 10);
      assert.equal(rl.minute.r, 10 - usedBurst, `call ${i}: minute remaining`);
      assert.equal(rl.month.r, 100 - quotaUsed, `call ${i}: month remaining`);
      assert.ok(
        rl.minute.t >= Math.floor(minuteEnd - after / 1000) && rl.minute.t <= Math.ceil(minuteEnd - before / 1000),
        `call ${i}: minute t=${rl.minute.t}`,
      );
      const monthEnd = Date.UTC(new Date(before).getUTCFullYear(), new Date(before).getUTCMonth() + 1, 1) / 1000;
      assert.ok(Math.abs(rl.month.t - (monthEnd - before / 1000)) <= 2, `call ${i}: month t=${rl.month.t}`);
      assert.equal(h.headers.get("x-ratelimit-limit"), "10");
      assert.equal(h.headers.get("x-ratelimit-remaining"), String(10 - usedBurst), `call ${i}: X-RateLimit-Remaining`);
      assert.equal(
        h.headers.get("x-ratelimit-reset"),
        String(minuteEnd),
        `call ${i}: X-RateLimit-Reset is the minute's end (Unix s)`,
      );
      if (h.status === 429) {
        const retry = Number(h.headers.get("retry-after"));
        assert.ok(
          retry >= 1 && retry <= 60 && Math.abs(retry - rl.minute.t) <= 1,
          `Retry-After ${retry} vs t ${rl.minute.t}`,
        );
      }
    }
    assert.equal(quotaUsed, 9);
    const c = await counters(k.keyId);
    assert.deepEqual([c["A:minute"], c["A:month"]], [10, 9]);
  });

  it("(d') family B headers: per-minute and per-day policies", async () => {
    await setSandbox({ bPerMinute: 5, bPerDay: 100 });
    const k = await accountWithKey(t.db, { env: "test" });
    await guardMinute(15);
    for (let i = 1; i <= 6; i++) {
      const before = Date.now();
      const h = await call(servers[i % 2].baseUrl, "/api/v1/data/yield-curve", k.key);
      assert.equal(h.status, i <= 5 ? 200 : 429, `call ${i}`);
      assert.deepEqual(parseStructured(h.headers.get("ratelimit-policy")), {
        minute: { q: 5, w: 60 },
        day: { q: 100, w: 86_400 },
      });
      const rl = parseStructured(h.headers.get("ratelimit"));
      assert.equal(rl.minute.r, 5 - Math.min(i, 5));
      assert.equal(rl.day.r, 100 - Math.min(i, 5));
      const dayEnd = Math.floor(before / 86_400_000) * 86_400 + 86_400;
      assert.ok(Math.abs(rl.day.t - (dayEnd - before / 1000)) <= 2, `day t=${rl.day.t}`);
      assert.equal(h.headers.get("x-ratelimit-limit"), "5");
      assert.equal(h.headers.get("x-ratelimit-remaining"), String(5 - Math.min(i, 5)));
    }
  });

  it("unauthenticated calls carry no rate-limit headers", async () => {
    const res = await fetch(`${servers[0].baseUrl}${A_ROUTE}`);
    assert.equal(res.status, 401);
    await res.text();
    assert.equal(res.headers.get("x-ratelimit-remaining"), null);
  });
});
