/**
 * The portal's usage numbers equal the API's own metering: real calls over HTTP to the real API server, then
 * usageSummary/requestLog compared with what the responses said (statuses, request ids, RateLimit headers).
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { startRouteHarness, type Harness } from "../helpers/route-harness";
import { accountWithKey } from "../helpers/accounts";
import { createKey } from "../../lib/domain/keys";
import { systemActor } from "../../lib/domain/audit";
import { usageSummary, type RequestLogEntry, type StatusClass } from "../../lib/domain/usage";
import { requestLog } from "../../lib/domain/request-log";
import { loggedErrorBody } from "../../lib/api/logged-error";
import { DomainError } from "../../lib/domain/errors";

const A_OK = { path: "/api/v1/ticker/AAPL/summary", id: "GET /api/v1/ticker/{symbol}/summary" };
const A_404 = { path: "/api/v1/ticker/ZZZZZ/summary", id: "GET /api/v1/ticker/{symbol}/summary" };
const B_OK = { path: "/api/v1/data/yield-curve", id: "GET /api/v1/data/yield-curve" };
// A key-shaped value and a secret-named parameter in the query: the log keeps neither.
const A_SECRET = {
  path: "/api/v1/options-flow?symbol=msft&api_key=hunter2&note=svc_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
  id: "GET /api/v1/options-flow",
};

interface Made {
  key: "k1" | "k2";
  endpointId: string;
  path: string;
  family: "A" | "B";
  status: number;
  requestId: string;
  rateLimit: string | null;
  ratePolicy: string | null;
  burstRemaining: string | null;
  burstLimit: string | null;
  /** The body's length in bytes as received. */
  bytes: number;
  /** The body as received. */
  text: string;
}

let t: TestDatabase;
let server: Harness;
let first: Awaited<ReturnType<typeof accountWithKey>>;
let second: { id: string; key: string };
let other: Awaited<ReturnType<typeof accountWithKey>>;
const made: Made[] = [];
let dayAtStart = "";

const classOf = (s: number): StatusClass => (s >= 200 && s < 300 ? "2xx" : s === 429 ? "429" : s < 500 ? "4xx" : "5xx");

async function call(which: "k1" | "k2", target: { path: string; id: string }, family: "A" | "B") {
  const key = which === "k1" ? first.key : second.key;
  const res = await fetch(server.baseUrl + target.path, { headers: { authorization: `Bearer ${key}` } });
  const body = new Uint8Array(await res.arrayBuffer());
  assert.equal(typeof JSON.parse(new TextDecoder().decode(body)), "object", "a JSON object, not a JSON string");
  made.push({
    key: which,
    endpointId: target.id,
    path: target.path,
    family,
    status: res.status,
    requestId: res.headers.get("x-request-id")!,
    rateLimit: res.headers.get("ratelimit"),
    ratePolicy: res.headers.get("ratelimit-policy"),
    burstRemaining: res.headers.get("x-ratelimit-remaining"),
    burstLimit: res.headers.get("x-ratelimit-limit"),
    bytes: body.byteLength,
    text: new TextDecoder().decode(body),
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
/** The quota's limit in the second policy of a RateLimit-Policy header: `"minute";q=5;w=60, "day";q=100;w=86400`. */
const quotaLimit = (header: string) => Number(/"(?:month|day)";q=(\d+)/.exec(header)![1]);

describe("usage domain functions match the gateway's metering", () => {
  before(async () => {
    t = await createSeededTestDatabase("usage", { seed: "options-research-demo-v1", now: new Date() });
    server = await startRouteHarness(t.url);
    first = await accountWithKey(t.db);
    const k2 = await createKey(t.db, { accountId: first.accountId, env: "test", name: "second" }, systemActor("test"));
    second = { id: k2.id, key: k2.key };
    other = await accountWithKey(t.db);
    dayAtStart = new Date().toISOString().slice(0, 10);
    for (let i = 0; i < 3; i++) await call("k1", A_OK, "A");
    await call("k1", A_404, "A");
    await call("k2", A_OK, "A");
    await call("k2", A_SECRET, "A");
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

  it("quota is the account's per environment, as the RateLimit header says; each key's share adds up to it", async () => {
    const s = await usageSummary(t.db, first.accountId);
    assert.equal(s.quotas.length, 1, "test keys only: one environment");
    const [test] = s.quotas;
    assert.equal(test.env, "test");
    assert.equal(test.plan, "sandbox");
    assert.deepEqual(
      [test.familyA.window, test.familyA.limit, test.familyB.window, test.familyB.limit],
      ["month", 100, "day", 100],
    );
    const ok = (family: string, key?: string) =>
      made.filter((m) => (key === undefined || m.key === key) && m.family === family && m.status === 200).length;
    // Both keys' 2xx count against the one quota; the last response of either key tells the same use.
    assert.equal(test.familyA.used, ok("A"));
    assert.equal(test.familyB.used, ok("B"));
    const lastA = made.filter((m) => m.family === "A").at(-1)!;
    assert.equal(test.familyA.used, 100 - quotaRemaining(lastA.rateLimit!));
    const lastB = made.filter((m) => m.family === "B").at(-1)!;
    assert.equal(test.familyB.used, 100 - quotaRemaining(lastB.rateLimit!));
    assert.equal(test.familyA.windowStart, `${dayAtStart.slice(0, 8)}01T00:00:00.000Z`);

    const k1 = s.keyCalls.find((k) => k.keyId === first.keyId)!;
    const k2 = s.keyCalls.find((k) => k.keyId === second.id)!;
    assert.deepEqual([k1.quotaA, k1.quotaB, k2.quotaA, k2.quotaB], [ok("A", "k1"), ok("B", "k1"), ok("A", "k2"), 0]);
    assert.equal(k1.quotaA + k2.quotaA, test.familyA.used);
    const calls = (key: string) => made.filter((m) => m.key === key).length;
    assert.deepEqual([k1.today, k1.month, k2.today, k2.month], [calls("k1"), calls("k1"), calls("k2"), calls("k2")]);
    assert.deepEqual(
      s.keyCalls.map((k) => k.keyId),
      [first.keyId, second.id],
      "busiest key first",
    );
  });

  it("the RateLimit header's partition keys say so: one quota partition for both keys, a burst partition per key", () => {
    const pks = (m: Made) => [...m.rateLimit!.matchAll(/;pk=:([^:]+):/g)].map((x) => x[1]);
    const a1 = made.find((m) => m.key === "k1" && m.family === "A" && m.status === 200)!;
    const a2 = made.find((m) => m.key === "k2" && m.family === "A" && m.status === 200)!;
    assert.equal(pks(a1)[1], pks(a2)[1]);
    assert.notEqual(pks(a1)[0], pks(a2)[0]);
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
      assert.equal(`${e.method} ${e.route}`, m.endpointId);
      assert.ok(e.pathKept);
      if (m.path !== A_SECRET.path) assert.equal(e.path, m.path, "the requested path, not the route template");
      assert.equal(e.keyPrefix, (m.key === "k1" ? first.key : second.key).slice(0, e.keyPrefix.length));
      assert.ok(e.keyPrefix.length < 16, "a prefix, never the key");
      if (m.status === 429) assert.equal(e.errorCode, "rate_limit_exceeded");
    }
  });

  it("each log entry keeps the answer's size and the rate-limit state its headers told the client", async () => {
    const { entries } = await requestLog(t.db, first.accountId, { limit: 100 });
    assert.equal(entries.length, made.length);
    const byId = new Map(made.map((m) => [m.requestId, m]));
    for (const e of entries) {
      const m = byId.get(e.requestId)!;
      assert.ok(m.bytes > 0);
      assert.equal(e.responseBytes, m.bytes, `${m.path} ${m.status}: the body's byte length`);
      assert.ok(
        m.rateLimit && m.ratePolicy && m.burstRemaining && m.burstLimit,
        "every metered answer had the headers",
      );
      assert.deepEqual(e.rateLimit, {
        burstRemaining: Number(m.burstRemaining),
        burstLimit: Number(m.burstLimit),
        quotaRemaining: quotaRemaining(m.rateLimit),
        quotaLimit: quotaLimit(m.ratePolicy),
      });
    }
    // Hand-checked: Sandbox family B allows 5 calls a minute per key, so within one UTC minute k1's family B calls said
    // 4, 3, 2, 1, 0 left, and the 429 that followed 0 of 5.
    const b = entries.filter((e) => e.route === B_OK.path).reverse();
    const seen = new Map<string, number>();
    for (const e of b) {
      const minute = e.time.slice(0, 16);
      const before = seen.get(minute) ?? 0;
      seen.set(minute, before + 1);
      assert.equal(e.rateLimit?.burstRemaining, Math.max(0, 4 - before), e.time);
    }
    assert.ok(b.every((e) => e.rateLimit?.burstLimit === 5));
    const refused = b.at(-1)!;
    assert.equal(refused.status, 429);
    assert.equal(refused.rateLimit?.burstRemaining, 0);
  });

  it("request log filters: key, route, status class and time range", async () => {
    const byKey = await requestLog(t.db, first.accountId, { keyId: second.id });
    assert.deepEqual(
      byKey.entries.map((e) => e.requestId),
      made
        .filter((m) => m.key === "k2")
        .map((m) => m.requestId)
        .reverse(), // newest first
    );
    const limited = await requestLog(t.db, first.accountId, { status: "429" });
    assert.equal(limited.entries.length, made.filter((m) => m.status === 429).length);
    const b = await requestLog(t.db, first.accountId, { endpointId: B_OK.id, status: "2xx" });
    assert.equal(b.entries.length, made.filter((m) => m.endpointId === B_OK.id && m.status === 200).length);
    const past = await requestLog(t.db, first.accountId, {
      from: new Date(Date.now() - 3 * 86_400_000),
      to: new Date(Date.now() - 2 * 86_400_000),
    });
    assert.equal(past.entries.length, 0);

    const notFound = await requestLog(t.db, first.accountId, { status: "404" });
    assert.deepEqual(
      notFound.entries.map((e) => e.path),
      [A_404.path],
    );
    const byCode = await requestLog(t.db, first.accountId, { errorCode: "rate_limit_exceeded" });
    assert.equal(byCode.entries.length, made.filter((m) => m.status === 429).length);
    assert.equal((await requestLog(t.db, first.accountId, { errorCode: "symbol_not_found" })).entries.length, 1);
  });

  it("the symbol filter finds a symbol in its path segment or its symbol= value, in any case", async () => {
    const paths = async (symbol: string) =>
      (await requestLog(t.db, first.accountId, { symbol })).entries.map((e) => e.path);
    const aapl = made.filter((m) => m.path === A_OK.path).length;
    assert.equal((await paths("aapl")).length, aapl);
    assert.ok((await paths("AAPL")).every((p) => p === A_OK.path));
    assert.deepEqual(await paths("zzzzz"), [A_404.path]);
    assert.equal((await paths("MSFT")).length, 1, "symbol=msft in the query");
    // Words of the path that are not its symbol are not symbols: /api/v1/ticker/…, /api/v1/data/yield-curve.
    for (const word of ["TICKER", "API", "DATA", "V"]) assert.deepEqual(await paths(word), [], word);
  });

  it("the log keeps the path without query secrets", async () => {
    const [entry] = (await requestLog(t.db, first.accountId, { endpointId: A_SECRET.id })).entries;
    assert.equal(entry.path, "/api/v1/options-flow?symbol=msft&api_key=REDACTED&note=svc_test_REDACTED");
    const [{ n }] =
      await t.sql`select count(*)::int as n from usage_events where path like '%hunter2%' or path like '%AAAAAAAAAA%'`;
    assert.equal(n, 0);
  });

  it("a request id finds its one call; an error row gives back the body the caller got, a 2xx row none", async () => {
    for (const m of made.filter((x) => x.key === "k1")) {
      const { entries } = await requestLog(
        t.db,
        first.accountId,
        { requestId: m.requestId },
        undefined,
        loggedErrorBody,
      );
      assert.deepEqual(
        entries.map((e) => [e.requestId, e.status]),
        [[m.requestId, m.status]],
      );
      const [e] = entries;
      if (m.status === 200) assert.equal(e.errorBody, null);
      else assert.equal(JSON.stringify(e.errorBody), m.text, `${m.path} ${m.status}: the body, byte for byte`);
    }
    assert.deepEqual((await requestLog(t.db, other.accountId, { requestId: made[0].requestId })).entries, []);
    const [noRenderer] = (await requestLog(t.db, first.accountId, { requestId: made[3].requestId })).entries;
    assert.equal(noRenderer.errorBody, null, "without a renderer the domain renders nothing");
  });

  it("another account sees none of it, and cannot filter by the first account's key", async () => {
    const s = await usageSummary(t.db, other.accountId);
    assert.equal(
      s.minutes.cells.reduce((n, c) => n + c.calls, 0),
      1,
    );
    assert.deepEqual(
      s.keyCalls.map((k) => k.keyId),
      [other.keyId],
    );
    assert.equal(s.quotas[0].familyA.used, 1, "the other account's quota holds only its own call");
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
    for (const status of ["3xx", "600", "99", "2XX", "20", "abc"])
      await assert.rejects(requestLog(t.db, first.accountId, { status }), field("status"), status);
    for (const errorCode of ["Not_Found", "x y", "a'b", ""])
      await assert.rejects(requestLog(t.db, first.accountId, { errorCode }), field("error_code"), errorCode);
    for (const symbol of ["AAPL1", "A'B", "TOOLONGX", "", "BRK.BBB"])
      await assert.rejects(requestLog(t.db, first.accountId, { symbol }), field("symbol"), symbol);
    for (const requestId of ["", "a b", "x'y", "r".repeat(129), "é"])
      await assert.rejects(requestLog(t.db, first.accountId, { requestId }), field("request_id"), requestId);
  });
});

describe("usage events of refused calls keep the size of the refusal that was sent", () => {
  let db: TestDatabase;
  let api: Harness;
  let account: Awaited<ReturnType<typeof accountWithKey>>;

  before(async () => {
    db = await createSeededTestDatabase("usage_refusals", { seed: "options-research-demo-v1", now: new Date() });
    api = await startRouteHarness(db.url); // seeds the plans; its caches live 0 ms
    account = await accountWithKey(db.db);
    // Plans are data: a quota of one call and a burst of three, so each family answers 403 and then 429.
    await db.sql`update plans set a_per_minute = 3, a_per_month = 1, b_per_minute = 3, b_per_day = 1 where id = 'sandbox'`;
  });
  after(async () => {
    await api?.stop();
    await db?.drop();
  });

  it("403 plan_limit_exceeded and 429 rate_limit_exceeded in both families: response_bytes is the body's length", async () => {
    const sent = new Map<string, { status: number; bytes: number; text: string }>();
    for (const target of [A_OK, B_OK]) {
      const statuses = new Set<number>();
      for (let i = 0; i < 12 && !(statuses.has(403) && statuses.has(429)); i++) {
        const res = await fetch(api.baseUrl + target.path, { headers: { authorization: `Bearer ${account.key}` } });
        const body = await res.arrayBuffer();
        statuses.add(res.status);
        const text = new TextDecoder().decode(body);
        sent.set(res.headers.get("x-request-id")!, { status: res.status, bytes: body.byteLength, text });
      }
      assert.ok(statuses.has(403) && statuses.has(429), `${target.path}: both refusals seen (${[...statuses]})`);
    }
    const { entries } = await requestLog(db.db, account.accountId, { limit: 100 }, undefined, loggedErrorBody);
    assert.equal(entries.length, sent.size);
    for (const e of entries) {
      const s = sent.get(e.requestId)!;
      assert.equal(e.status, s.status);
      assert.ok(s.bytes > 0);
      assert.equal(e.responseBytes, s.bytes, `${e.route} ${e.status}: the body's byte length`);
      // The refusals' bodies (decided by admission in the database) come back byte for byte too.
      if (e.status >= 400) assert.equal(JSON.stringify(e.errorBody), s.text, `${e.route} ${e.status}: the body`);
      else assert.equal(e.errorBody, null);
    }
  });
});
