/**
 * The portal's usage numbers equal the API's own metering: real calls over HTTP to the real API server, then
 * usageSummary/requestLog compared with what the responses said (statuses, request ids, RateLimit headers).
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { startApiServer, type RunningServer } from "../helpers/api-server";
import { accountWithKey } from "../helpers/accounts";
import { seedDemoMarket } from "../../lib/market/demo-market-writer";
import { createKey } from "../../lib/domain/keys";
import { systemActor } from "../../lib/domain/audit";
import { requestLog, usageSummary, type RequestLogEntry, type StatusClass } from "../../lib/domain/usage";
import { DomainError } from "../../lib/domain/errors";

const A_OK = { path: "/api/v1/ticker/AAPL/summary", id: "GET /api/v1/ticker/{symbol}/summary" };
const A_404 = { path: "/api/v1/ticker/ZZZZZ/summary", id: "GET /api/v1/ticker/{symbol}/summary" };
const B_OK = { path: "/api/v1/data/yield-curve", id: "GET /api/v1/data/yield-curve" };

interface Made {
  key: "k1" | "k2";
  endpointId: string;
  family: "A" | "B";
  status: number;
  requestId: string;
  rateLimit: string | null;
}

let t: TestDatabase;
let server: RunningServer;
let first: Awaited<ReturnType<typeof accountWithKey>>;
let second: { id: string; key: string };
let other: Awaited<ReturnType<typeof accountWithKey>>;
const made: Made[] = [];
let dayAtStart = "";

const classOf = (s: number): StatusClass => (s >= 200 && s < 300 ? "2xx" : s === 429 ? "429" : s < 500 ? "4xx" : "5xx");

async function call(which: "k1" | "k2", target: { path: string; id: string }, family: "A" | "B") {
  const key = which === "k1" ? first.key : second.key;
  const res = await fetch(server.baseUrl + target.path, { headers: { authorization: `Bearer ${key}` } });
  await res.text();
  made.push({
    key: which,
    endpointId: target.id,
    family,
    status: res.status,
    requestId: res.headers.get("x-request-id")!,
    rateLimit: res.headers.get("ratelimit"),
  });
}

function tally(rows: { endpointId: string; statusClass: string; calls: number }[]) {
  const m = new Map<string, number>();
  for (const r of rows)
    m.set(`${r.endpointId}|${r.statusClass}`, (m.get(`${r.endpointId}|${r.statusClass}`) ?? 0) + r.calls);
  return m;
}

/** Remaining quota units in the second policy of an IETF RateLimit header: `"minute";r=7;t=42, "month";r=93;t=…`. */
const quotaRemaining = (header: string) => Number(/"(?:month|day)";r=(\d+)/.exec(header)![1]);

describe("usage domain functions match the gateway's metering", () => {
  before(async () => {
    t = await createTestDatabase("usage");
    await seedDemoMarket(t.db, { seed: "options-research-demo-v1", now: new Date() });
    server = await startApiServer(t.url);
    first = await accountWithKey(t.db);
    const k2 = await createKey(t.db, { accountId: first.accountId, env: "test", name: "second" }, systemActor("test"));
    second = { id: k2.id, key: k2.key };
    other = await accountWithKey(t.db);
    dayAtStart = new Date().toISOString().slice(0, 10);
    for (let i = 0; i < 3; i++) await call("k1", A_OK, "A");
    await call("k1", A_404, "A");
    await call("k2", A_OK, "A");
    // Family B on Sandbox allows 5 calls a minute: keep calling until the burst limit answers 429 (bounded).
    for (let i = 0; i < 20 && !made.some((m) => m.status === 429); i++) await call("k1", B_OK, "B");
    await fetch(`${server.baseUrl}/api/v1/health`); // never metered
    const o = await fetch(server.baseUrl + A_OK.path, { headers: { authorization: `Bearer ${other.key}` } });
    await o.text();
  });
  after(async () => {
    await server?.stop();
    await t?.drop();
  });

  it("the calls were what the test expects: 2xx, a 404 and at least one 429", () => {
    assert.ok(
      made.some((m) => m.status === 429),
      "a 429 was answered",
    );
    assert.ok(made.some((m) => m.status === 404));
    assert.ok(made.filter((m) => m.status === 200).length >= 5);
  });

  it("minute series: calls by route and status class equal the responses received", async () => {
    const s = await usageSummary(t.db, first.accountId);
    assert.equal(s.minutes.minutes.length, 60);
    assert.deepEqual(
      tally(s.minutes.cells),
      tally(made.map((m) => ({ endpointId: m.endpointId, statusClass: classOf(m.status), calls: 1 }))),
    );
    for (const c of s.minutes.cells) assert.equal(c.family, c.endpointId === B_OK.id ? "B" : "A");
  });

  it("daily series (usage_daily): today's calls by route and status class equal the responses (429 counted as 4xx)", async (ctx) => {
    if (new Date().toISOString().slice(0, 10) !== dayAtStart) return ctx.skip("the calls straddled midnight UTC");
    const s = await usageSummary(t.db, first.accountId);
    assert.equal(s.daily.days.length, 30);
    assert.equal(s.daily.days.at(-1), dayAtStart);
    const today = s.daily.cells.filter((c) => c.bucket === dayAtStart);
    assert.equal(today.length, s.daily.cells.length, "no other day has calls");
    const expected = made.map((m) => ({
      endpointId: m.endpointId,
      statusClass: classOf(m.status) === "429" ? "4xx" : classOf(m.status),
      calls: 1,
    }));
    assert.deepEqual(tally(today), tally(expected));
  });

  it("quota gauges are the gateway's counters: used = limit − the RateLimit header's remaining", async () => {
    const s = await usageSummary(t.db, first.accountId);
    const k1 = s.quotas.find((q) => q.keyId === first.keyId)!;
    const k2 = s.quotas.find((q) => q.keyId === second.id)!;
    assert.equal(k1.plan, "sandbox");
    assert.deepEqual(
      [k1.familyA.window, k1.familyA.limit, k1.familyB.window, k1.familyB.limit],
      ["month", 100, "day", 100],
    );
    const ok = (key: string, family: string) =>
      made.filter((m) => m.key === key && m.family === family && m.status === 200).length;
    assert.equal(k1.familyA.used, ok("k1", "A"));
    assert.equal(k1.familyB.used, ok("k1", "B"));
    assert.equal(k2.familyA.used, 1);
    assert.equal(k2.familyB.used, 0);
    const lastA = made.filter((m) => m.key === "k1" && m.family === "A").at(-1)!;
    assert.equal(k1.familyA.used, 100 - quotaRemaining(lastA.rateLimit!));
    const lastB = made.filter((m) => m.key === "k1" && m.family === "B").at(-1)!;
    assert.equal(k1.familyB.used, 100 - quotaRemaining(lastB.rateLimit!));
    assert.equal(k1.familyA.windowStart, `${dayAtStart.slice(0, 8)}01T00:00:00.000Z`);
  });

  it("429 gauge counts the rate_limit_exceeded answers, and every call in the same windows", async () => {
    const s = await usageSummary(t.db, first.accountId);
    const n429 = made.filter((m) => m.status === 429).length;
    assert.equal(s.rateLimited.lastHour, n429);
    assert.equal(s.rateLimited.lastHourCalls, made.length);
    assert.equal(s.rateLimited.today, n429);
  });

  it("the request log holds every call once, newest first, with the response's request id; paging by cursor walks it all", async () => {
    const all: RequestLogEntry[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 50; pages++) {
      const page = await requestLog(t.db, first.accountId, { limit: 3, cursor });
      assert.ok(page.entries.length <= 3);
      all.push(...page.entries);
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    assert.equal(all.length, made.length);
    assert.deepEqual(new Set(all.map((e) => e.requestId)), new Set(made.map((m) => m.requestId)));
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1], all[i]];
      assert.ok(a.time > b.time || (a.time === b.time && BigInt(a.id) > BigInt(b.id)), "strictly newest first");
    }
    const byId = new Map(made.map((m) => [m.requestId, m]));
    for (const e of all) {
      const m = byId.get(e.requestId)!;
      assert.equal(e.status, m.status);
      assert.equal(`${e.method} ${e.path}`, m.endpointId);
      assert.equal(e.keyPrefix, (m.key === "k1" ? first.key : second.key).slice(0, e.keyPrefix.length));
      assert.ok(e.keyPrefix.length < 16, "a prefix, never the key");
      if (m.status === 429) assert.equal(e.errorCode, "rate_limit_exceeded");
    }
  });

  it("request log filters: key, route, status class and time range", async () => {
    const byKey = await requestLog(t.db, first.accountId, { keyId: second.id });
    assert.deepEqual(
      byKey.entries.map((e) => e.requestId),
      made.filter((m) => m.key === "k2").map((m) => m.requestId),
    );
    const limited = await requestLog(t.db, first.accountId, { statusClass: "429" });
    assert.equal(limited.entries.length, made.filter((m) => m.status === 429).length);
    const b = await requestLog(t.db, first.accountId, { endpointId: B_OK.id, statusClass: "2xx" });
    assert.equal(b.entries.length, made.filter((m) => m.endpointId === B_OK.id && m.status === 200).length);
    const past = await requestLog(t.db, first.accountId, {
      from: new Date(Date.now() - 3 * 86_400_000),
      to: new Date(Date.now() - 2 * 86_400_000),
    });
    assert.equal(past.entries.length, 0);
  });

  it("another account sees none of it, and cannot filter by the first account's key", async () => {
    const s = await usageSummary(t.db, other.accountId);
    assert.equal(
      s.minutes.cells.reduce((n, c) => n + c.calls, 0),
      1,
    );
    assert.deepEqual(
      s.quotas.map((q) => q.keyId),
      [other.keyId],
    );
    const log = await requestLog(t.db, other.accountId);
    assert.equal(log.entries.length, 1);
    await assert.rejects(
      requestLog(t.db, other.accountId, { keyId: first.keyId }),
      (e: unknown) => e instanceof DomainError && e.code === "not_found",
    );
  });

  it("bad input is refused with the field at fault", async () => {
    const field = (f: string) => (e: unknown) =>
      e instanceof DomainError && e.code === "invalid" && e.detail.field === f;
    await assert.rejects(requestLog(t.db, first.accountId, { cursor: "not-a-cursor" }), field("cursor"));
    await assert.rejects(
      requestLog(t.db, first.accountId, { from: new Date(Date.now() - 40 * 86_400_000), to: new Date() }),
      field("from"),
    );
    await assert.rejects(
      requestLog(t.db, first.accountId, { from: new Date(), to: new Date(Date.now() - 1000) }),
      field("from"),
    );
    await assert.rejects(requestLog(t.db, first.accountId, { limit: 0 }), field("limit"));
  });
});
