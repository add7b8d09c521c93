/**
 * Bad input on every route (docs/api-contract.md §1, §2, §4): each answer is the contract's 4xx code in the route's
 * family shape,
 * never a 5xx, and nothing is written: no webhook, no quota unit (burst units and usage events are expected).
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { startApiServer, type RunningServer } from "../helpers/api-server";
import { startRouteHarness, type Harness } from "../helpers/route-harness";
import { undeclaredErrors, undeclaredInLog } from "../helpers/declared-errors";
import {
  type Got,
  type RouteCase,
  type Sent,
  type TestCaller,
  assertNoLeaks,
  call,
  credentialHeaders,
  describeSent,
  expectErrorShape,
  expectSuccessShape,
  newCaller,
  outputsBodyFromChain,
  historyFixture,
  quotaCounters,
  received,
  routeCases,
  setPlanLimits,
  validAlertBody,
  webhookRows,
  UNKNOWN_WEBHOOK_ID,
} from "../helpers/contract";

const SEED = "options-research-demo-v1";
type Family = "A" | "B";

interface BadCase {
  name: string;
  family: Family;
  sent: Sent;
  status: number;
  code: string;
  /** The message must name this field. */
  field?: string;
}

async function all<T>(items: T[], fn: (item: T) => Promise<void>): Promise<void> {
  const results = await Promise.allSettled(items.map(fn));
  const failures = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
  if (failures.length) {
    const text = failures
      .slice(0, 12)
      .map((f) => (f instanceof Error ? f.message : String(f)))
      .join("\n---\n");
    assert.fail(`${failures.length}/${items.length} case(s) failed:\n${text}`);
  }
}

const SYMBOL_ROUTES = [
  {
    id: "GET /api/v1/ticker/{symbol}/summary",
    path: (s: string) => `/api/v1/ticker/${s}/summary`,
    family: "A" as const,
  },
  { id: "GET /api/v1/signal-score/{symbol}", path: (s: string) => `/api/v1/signal-score/${s}`, family: "A" as const },
  {
    id: "GET /api/v1/ai/symbol/{ticker}/summary",
    path: (s: string) => `/api/v1/ai/symbol/${s}/summary`,
    family: "B" as const,
  },
  {
    id: "GET /api/v1/ai/symbol/{ticker}/no-trade",
    path: (s: string) => `/api/v1/ai/symbol/${s}/no-trade`,
    family: "B" as const,
  },
];

/** Path-segment spellings of bad symbols (already URL-encoded where needed). */
const BAD_PATH_SYMBOLS = [
  "AAPL1",
  "TOOLONGXX",
  "A..B",
  "%00",
  "%F0%9F%98%80",
  "BRK.BBB",
  "-AAPL",
  "AAPL.",
  "A%2FB",
  "A%20B",
  "%E0%A4%A",
  "A".repeat(5000),
  "A_B",
  "1234",
];
/** Query/body spellings of bad symbols. */
const BAD_SYMBOLS = [
  "AAPL1",
  "TOOLONGXX",
  "A..B",
  "\u0000",
  "😀",
  "BRK.BBB",
  "-AAPL",
  "AAPL.",
  "A/B",
  "A B",
  "",
  "A".repeat(5000),
];

describe("bad input on every route", () => {
  let t: TestDatabase;
  let server: Harness;
  let http: RunningServer; // the real process, for what only its HTTP parser sees
  let base: string;
  let routes: RouteCase[];
  let testKey: TestCaller; // sandbox test key: every market route
  let proKey: TestCaller; // Pro live key: the webhook routes
  let outputsBody: Record<string, unknown>;
  const byId = (id: string) => routes.find((r) => r.id === id)!;

  before(async () => {
    t = await createSeededTestDatabase("badinput", { seed: SEED, now: new Date() });
    outputsBody = await outputsBodyFromChain(t.sql);
    routes = routeCases({ outputsBody, historyDate: await historyFixture(t.db) });
    server = await startRouteHarness(t.url); // seeds the plan catalogue
    base = server.baseUrl;
    // Hundreds of bad calls on two keys: lift the burst windows and quotas, keep the plans' payload maxima.
    for (const id of ["sandbox", "pro"])
      await setPlanLimits(t.sql, id, {
        a_per_minute: 100_000,
        b_per_minute: 100_000,
        a_per_month: 100_000,
        b_per_day: 100_000,
      });
    testKey = await newCaller(t.db, { plan: "sandbox", env: "test" });
    proKey = await newCaller(t.db, { plan: "pro", env: "live", style: "standard", webhooks: 1 });
  });

  after(async () => {
    await server?.stop();
    await t?.drop();
  });

  const keyFor = (rc: RouteCase) => (rc.webhooks ? proKey : testKey);
  const auth = (rc: RouteCase) => credentialHeaders("bearer", keyFor(rc).key);
  const json = (rc: RouteCase, body: unknown, extra: Record<string, string> = {}): Sent => ({
    method: rc.method,
    path: rc.request().path,
    headers: { ...auth(rc), "content-type": "application/json", ...extra },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

  /** Runs bad cases concurrently; each must be its 4xx, and the batch must write no webhook and no quota unit. */
  async function runBad(cases: BadCase[]) {
    const quotaBefore = await quotaCounters(t.sql);
    const hooksBefore = await webhookRows(t.sql);
    await all(cases, async (k) => {
      const res = await call(base, k.sent);
      assert.ok(res.status < 500, `${k.name}: ${describeSent(res)} → ${res.status} ${res.text.slice(0, 200)}`);
      let body: ReturnType<typeof expectErrorShape>;
      try {
        body = expectErrorShape(k.family, res, k.status, k.code);
      } catch (err) {
        throw new Error(`${k.name}: ${(err as Error).message}`);
      }
      if (k.field)
        assert.ok(body.error.message.includes(k.field), `${k.name}: message names '${k.field}': ${body.error.message}`);
      // In the API's words: never the validator's raw text.
      assert.doesNotMatch(
        body.error.message,
        /Invalid input|expected \w+, received|Too (small|big): expected/,
        `${k.name}: ${body.error.message}`,
      );
    });
    assert.deepEqual(await quotaCounters(t.sql), quotaBefore, "quota counters unchanged");
    assert.deepEqual(await webhookRows(t.sql), hooksBefore, "webhooks unchanged");
  }

  it("bad symbols in the path → 400 invalid_request; unknown well-formed symbols → 404 symbol_not_found", async () => {
    const cases: BadCase[] = [];
    for (const r of SYMBOL_ROUTES) {
      const rc = byId(r.id);
      for (const s of BAD_PATH_SYMBOLS)
        cases.push({
          name: `${r.id} ${s.slice(0, 20)}`,
          family: r.family,
          sent: { method: "GET", path: r.path(s), headers: auth(rc) },
          status: 400,
          code: "invalid_request",
        });
      for (const s of ["ZZZZ", "QQQQQQ", "ab.c"])
        cases.push({
          name: `${r.id} ${s}`,
          family: r.family,
          sent: { method: "GET", path: r.path(s), headers: auth(rc) },
          status: 404,
          code: "symbol_not_found",
        });
    }
    await runBad(cases);
  });

  it("an empty symbol segment is refused in the contract's shape (404 unknown path or 400 bad symbol), never served", async () => {
    const sends = SYMBOL_ROUTES.flatMap((r) =>
      [r.path(""), r.path("%20"), r.path("").replace(/\/+$/, "") + "/"].map((path) => ({ r, path })),
    );
    const quotaBefore = await quotaCounters(t.sql);
    await all(sends, async ({ r, path }) => {
      const res = await call(base, { method: "GET", path, headers: auth(byId(r.id)) });
      if (res.status === 404) expectErrorShape("A", res, 404, "not_found");
      else expectErrorShape(r.family, res, 400, "invalid_request");
    });
    assert.deepEqual(await quotaCounters(t.sql), quotaBefore);
  });

  it("a 400 names the field, says what is expected and gives an example; enumerated values are case-insensitive", async () => {
    const rc = byId("GET /api/v1/options-flow");
    const get = (query: string) =>
      call(base, { method: "GET", path: `/api/v1/options-flow?${query}`, headers: auth(rc) });
    const limit = await get("limit=0");
    assert.equal(limit.status, 400);
    assert.equal(limit.json.error.message, "query field 'limit' must be at least 1. Example: limit=50.");
    const type = await get("type=bogus");
    assert.equal(
      type.json.error.message,
      "query field 'type' must be one of sweep, block, unusual. Example: type=sweep.",
    );
    for (const v of ["Sweep", "SWEEP", "block"]) {
      const ok = await get(`type=${v}&limit=5`);
      assert.equal(ok.status, 200, `type=${v}: ${ok.text.slice(0, 200)}`);
      for (const e of ok.json.data.events) assert.equal(e.type, v.toLowerCase());
    }
    const w = byId("GET /api/v1/data/watchlist-ranking");
    const missing = await call(base, { method: "GET", path: "/api/v1/data/watchlist-ranking", headers: auth(w) });
    assert.equal(missing.json.error.message, "query field 'symbols' is required. Example: symbols=AAPL,MSFT,SPY.");
  });

  it("options-flow: bad symbol, min_premium, limit, type and since → 400 naming the parameter", async () => {
    const rc = byId("GET /api/v1/options-flow");
    const q = (query: string): Sent => ({ method: "GET", path: `/api/v1/options-flow?${query}`, headers: auth(rc) });
    const cases: BadCase[] = [];
    for (const s of BAD_SYMBOLS)
      cases.push({
        name: `symbol=${s.slice(0, 10)}`,
        family: "A",
        sent: q(new URLSearchParams({ symbol: s }).toString()),
        status: 400,
        code: "invalid_request",
        field: "symbol",
      });
    cases.push({
      name: "symbol=%FF",
      family: "A",
      sent: q("symbol=%FF"),
      status: 400,
      code: "invalid_request",
      field: "symbol",
    });
    for (const v of [
      "-1",
      "1.5",
      "abc",
      "1e3",
      "99999999999999999999",
      "",
      " 5",
      "+5",
      "0x10",
      "1000000000001",
      "Infinity",
      "NaN",
    ]) {
      cases.push({
        name: `min_premium=${v}`,
        family: "A",
        sent: q(`symbol=AAPL&min_premium=${encodeURIComponent(v)}`),
        status: 400,
        code: "invalid_request",
        field: "min_premium",
      });
    }
    for (const v of ["0", "501", "-1", "1.5", "abc", "", "1e2", "99999999999999999999"]) {
      cases.push({
        name: `limit=${v}`,
        family: "A",
        sent: q(`limit=${encodeURIComponent(v)}`),
        status: 400,
        code: "invalid_request",
        field: "limit",
      });
    }
    for (const v of ["bogus", "sweeps", ""])
      cases.push({
        name: `type=${v}`,
        family: "A",
        sent: q(`type=${v}`),
        status: 400,
        code: "invalid_request",
        field: "type",
      });
    for (const v of ["yesterday", "2026-01-01", "2026-13-01T00:00:00Z", "2026-01-01T00:00:00", "1700000000"]) {
      cases.push({
        name: `since=${v}`,
        family: "A",
        sent: q(`since=${encodeURIComponent(v)}`),
        status: 400,
        code: "invalid_request",
        field: "since",
      });
    }
    cases.push({ name: "symbol=ZZZZ", family: "A", sent: q("symbol=ZZZZ"), status: 404, code: "symbol_not_found" });
    await runBad(cases);
  });

  it("unknown and duplicated query parameters → 400 on every route", async () => {
    const cases: BadCase[] = [];
    for (const rc of routes) {
      const req = rc.request({ webhookId: proKey.webhookIds[0] });
      const sep = req.path.includes("?") ? "&" : "?";
      const withBody = (path: string): Sent => ({
        method: req.method,
        path,
        headers: { ...auth(rc), ...(req.body ? { "content-type": "application/json" } : {}) },
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
      });
      cases.push({
        name: `${rc.id} unknown`,
        family: rc.family,
        sent: withBody(`${req.path}${sep}foo=1`),
        status: 400,
        code: "invalid_request",
        field: "foo",
      });
      cases.push({
        name: `${rc.id} api_key in query`,
        family: rc.family,
        sent: withBody(`${req.path}${sep}api_key=${testKey.key.slice(0, 12)}`),
        status: 400,
        code: "invalid_request",
        field: "api_key",
      });
      const [path, query] = req.path.split("?");
      if (query) {
        const first = query.split("&")[0];
        cases.push({
          name: `${rc.id} duplicated`,
          family: rc.family,
          sent: withBody(`${path}?${query}&${first}`),
          status: 400,
          code: "invalid_request",
          field: first.split("=")[0],
        });
      } else {
        cases.push({
          name: `${rc.id} duplicated unknown`,
          family: rc.family,
          sent: withBody(`${path}?a=1&a=1`),
          status: 400,
          code: "invalid_request",
        });
      }
    }
    await runBad(cases);
  });

  it("watchlist-ranking: 51 symbols, empty, a bad symbol, missing → 400", async () => {
    const rc = byId("GET /api/v1/data/watchlist-ranking");
    const w = (query: string): Sent => ({
      method: "GET",
      path: `/api/v1/data/watchlist-ranking${query}`,
      headers: auth(rc),
    });
    const universe = (
      await t.sql<{ symbol: string }[]>`select distinct symbol from instruments where env = 'demo' order by symbol`
    ).map((r) => r.symbol);
    assert.ok(universe.length >= 51, `demo universe has ${universe.length} symbols`);
    const cases: BadCase[] = [
      {
        name: "51 symbols",
        family: "B",
        sent: w(`?symbols=${universe.slice(0, 51).join(",")}`),
        status: 400,
        code: "invalid_request",
        field: "symbols",
      },
      {
        name: "51 made-up symbols",
        family: "B",
        sent: w(
          `?symbols=${Array.from({ length: 51 }, (_, i) => "S" + String.fromCharCode(65 + (i % 26)) + String.fromCharCode(65 + Math.floor(i / 26))).join(",")}`,
        ),
        status: 400,
        code: "invalid_request",
        field: "symbols",
      },
      { name: "empty", family: "B", sent: w("?symbols="), status: 400, code: "invalid_request", field: "symbols" },
      {
        name: "only commas",
        family: "B",
        sent: w("?symbols=,,,"),
        status: 400,
        code: "invalid_request",
        field: "symbols",
      },
      { name: "missing", family: "B", sent: w(""), status: 400, code: "invalid_request", field: "symbols" },
      {
        name: "too long",
        family: "B",
        sent: w(`?symbols=${"AAPL,".repeat(200)}`),
        status: 400,
        code: "invalid_request",
        field: "symbols",
      },
      {
        name: "only unknown symbols",
        family: "B",
        sent: w("?symbols=ZZZZ,QQQQQ"),
        status: 404,
        code: "symbol_not_found",
      },
    ];
    for (const s of BAD_SYMBOLS.filter((x) => x !== "" && !x.includes(","))) {
      cases.push({
        name: `bad ${s.slice(0, 10)}`,
        family: "B",
        sent: w(`?${new URLSearchParams({ symbols: `AAPL,${s}` })}`),
        status: 400,
        code: "invalid_request",
        field: "symbols",
      });
    }
    await runBad(cases);
  });

  it("POST bodies: invalid JSON, wrong content type, wrong types, unknown keys → 400", async () => {
    const cases: BadCase[] = [];
    for (const rc of routes.filter((r) => r.hasBody)) {
      const valid = rc.request().body as Record<string, unknown>;
      const add = (name: string, sent: Sent, field?: string) =>
        cases.push({ name: `${rc.id} ${name}`, family: rc.family, sent, status: 400, code: "invalid_request", field });
      for (const text of ["{", '{"symbol":', "nul", "", "{'a':1}", "\u0000", '{"a":1}}', "[1,]"])
        add(`invalid JSON ${JSON.stringify(text)}`, json(rc, text));
      for (const type of [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/jsonp",
        "json",
      ]) {
        add(`content-type ${type}`, json(rc, valid, { "content-type": type }));
      }
      add("no content-type", {
        method: rc.method,
        path: rc.request().path,
        headers: auth(rc),
        body: new TextEncoder().encode(JSON.stringify(valid)),
      });
      for (const doc of [[], "string", 42, null, true, [valid]])
        add(`JSON ${JSON.stringify(doc).slice(0, 20)}`, json(rc, doc));
      add("unknown key", json(rc, { ...valid, extra: 1 }), "extra");
      add("__proto__ key", json(rc, `{"__proto__":{"admin":true},${JSON.stringify(valid).slice(1)}`));
    }
    const outputs = byId("POST /api/v1/outputs");
    const o = (patch: Record<string, unknown>, field: string, name = JSON.stringify(patch).slice(0, 60)) =>
      cases.push({
        name: `outputs ${name}`,
        family: "B",
        sent: json(outputs, { ...outputsBody, ...patch }),
        status: 400,
        code: "invalid_request",
        field,
      });
    o({ symbol: 5 }, "symbol");
    o({ symbol: "AAPL1" }, "symbol");
    o({ symbol: null }, "symbol");
    o({ strategy: "short_gamma" }, "strategy");
    o({ strategy: 1 }, "strategy");
    o({ expiry: 20270115 }, "expiry");
    o({ expiry: "2027-02-30" }, "expiry");
    o({ expiry: "15/01/2027" }, "expiry");
    o({ expiry: "2099-01-15" }, "expiry"); // a calendar date no chain lists
    o({ expiry: "2020-01-17" }, "expiry"); // passed
    o({ strikes: "100" }, "strikes");
    o({ strikes: [] }, "strikes");
    o({ strikes: [-5] }, "strikes");
    o({ strikes: [0] }, "strikes");
    o(
      { strikes: [(outputsBody.strikes as number[])[0], (outputsBody.strikes as number[])[0] + 5] },
      "strikes",
      "long_call with 2 strikes",
    );
    o({ strategy: "iron_condor" }, "strikes", "iron_condor with 1 strike");
    o({ strategy: "bull_call_spread", strikes: [200, 100] }, "strikes[1]", "descending strikes");
    o({ strikes: [123456.5] }, "strikes[0]", "unlisted strike");
    o({ strikes: [1, 2, 3, 4, 5] }, "strikes");
    o({ quantity: 0 }, "quantity");
    o({ quantity: 1.5 }, "quantity");
    o({ quantity: 1001 }, "quantity");
    o({ quantity: "1" }, "quantity");
    o({ symbol: "ZZZZ" }, "", "unknown symbol");
    cases.at(-1)!.status = 404;
    cases.at(-1)!.code = "symbol_not_found";
    const { symbol: _s, ...noSymbol } = outputsBody;
    cases.push({
      name: "outputs missing symbol",
      family: "B",
      sent: json(outputs, noSymbol),
      status: 400,
      code: "invalid_request",
      field: "symbol",
    });

    const alerts = byId("POST /api/v1/alerts");
    const a = (patch: Record<string, unknown>, field: string) =>
      cases.push({
        name: `alerts ${JSON.stringify(patch).slice(0, 60)}`,
        family: "B",
        sent: json(alerts, { ...validAlertBody(), ...patch }),
        status: 400,
        code: "invalid_request",
        field,
      });
    a({ url: "http://example.com/hook" }, "url");
    a({ url: "http://localhost:9/hook" }, "url"); // loopback http is for test keys only
    a({ url: "not a url" }, "url");
    a({ url: "https://" + "a".repeat(2100) + ".com" }, "url");
    a({ url: 5 }, "url");
    a({ events: [] }, "events");
    a({ events: ["bogus"] }, "events");
    a({ events: ["no_trade.decision_changed", "no_trade.decision_changed"] }, "events");
    a({ events: ["iv_rank.crossed_above"] }, "ivRankAbove");
    a({ events: ["iv_rank.crossed_below"], ivRankBelow: 101 }, "ivRankBelow");
    a({ symbols: [] }, "symbols");
    a({ symbols: ["AAPL1"] }, "symbols");
    a({ symbols: Array.from({ length: 51 }, () => "AAPL") }, "symbols");
    a({ symbols: "AAPL" }, "symbols");
    a({ description: "x".repeat(201) }, "description");
    a({ status: "paused" }, "status");
    a({ signingSecret: "whsec_mine" }, "signingSecret");
    await runBad(cases);
  });

  it("webhook ids in the path: malformed → 400, unknown → 404", async () => {
    const cases: BadCase[] = [];
    for (const id of ["GET /api/v1/alerts/{webhookId}", "DELETE /api/v1/alerts/{webhookId}"]) {
      const rc = byId(id);
      for (const wid of [
        "not-an-id",
        "wh_XYZ",
        "wh_" + "0".repeat(23),
        "wh_" + "0".repeat(25),
        "WH_" + "0".repeat(24),
        "%00",
        "wh_000000000000000000000000%00",
      ]) {
        cases.push({
          name: `${id} ${wid}`,
          family: "B",
          sent: { method: rc.method, path: `/api/v1/alerts/${wid}`, headers: auth(rc) },
          status: 400,
          code: "invalid_request",
          field: "webhookId",
        });
      }
      cases.push({
        name: `${id} unknown`,
        family: "B",
        sent: { method: rc.method, path: `/api/v1/alerts/${UNKNOWN_WEBHOOK_ID}`, headers: auth(rc) },
        status: 404,
        code: "not_found",
      });
    }
    await runBad(cases);
  });

  it("oversized bodies → 413 payload_too_large at the plan's maximum (Sandbox 10 KB, Pro 1 MB)", async () => {
    const outputs = byId("POST /api/v1/outputs");
    const alerts = byId("POST /api/v1/alerts");
    const pad = (body: unknown, bytes: number) => {
      const text = JSON.stringify(body);
      return text.slice(0, -1) + " ".repeat(bytes - Buffer.byteLength(text)) + "}";
    };
    const cases: BadCase[] = [
      {
        name: "outputs 10 KB + 1",
        family: "B",
        sent: json(outputs, pad(outputsBody, 10 * 1024 + 1)),
        status: 413,
        code: "payload_too_large",
      },
      {
        name: "outputs 1 MB",
        family: "B",
        sent: json(outputs, pad(outputsBody, 1024 * 1024)),
        status: 413,
        code: "payload_too_large",
      },
      {
        name: "alerts 1 MB + 1",
        family: "B",
        sent: json(alerts, pad(validAlertBody(), 1024 * 1024 + 1)),
        status: 413,
        code: "payload_too_large",
      },
      {
        name: "alerts 3 MB",
        family: "B",
        sent: json(alerts, pad(validAlertBody(), 3 * 1024 * 1024)),
        status: 413,
        code: "payload_too_large",
      },
      // over the limit and invalid: size is checked first
      {
        name: "outputs 20 KB of garbage",
        family: "B",
        sent: json(outputs, "x".repeat(20 * 1024)),
        status: 413,
        code: "payload_too_large",
      },
    ];
    await runBad(cases);
    // exactly at the limit is accepted
    const atLimit = await call(base, json(outputs, pad(outputsBody, 10 * 1024)));
    expectSuccessShape("B", atLimit, { env: "test" });
  });

  it("a body on a DELETE route is ignored, never a 5xx", async () => {
    const del = byId("DELETE /api/v1/alerts/{webhookId}");
    const res = await call(base, {
      method: "DELETE",
      path: `/api/v1/alerts/${UNKNOWN_WEBHOOK_ID}`,
      headers: { ...auth(del), "content-type": "application/json" },
      body: "{not json",
    });
    assert.ok(res.status < 500, `${res.status}`);
    expectErrorShape("B", res, 404, "not_found");
  });

  it("two keys, a non-Bearer Authorization, and a key in the wrong place on every route", async () => {
    const other = await newCaller(t.db, { plan: "sandbox", env: "test" });
    const cases: BadCase[] = [];
    for (const rc of routes) {
      const req = rc.request({ webhookId: proKey.webhookIds[0] });
      const sent = (headers: Record<string, string>): Sent => ({
        method: req.method,
        path: req.path,
        headers: { ...headers, ...(req.body ? { "content-type": "application/json" } : {}) },
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
      });
      cases.push({
        name: `${rc.id} two keys`,
        family: rc.family,
        sent: sent({ ...auth(rc), "x-api-key": other.key }),
        status: 400,
        code: "invalid_request",
      });
      cases.push({
        name: `${rc.id} Basic`,
        family: rc.family,
        sent: sent({ authorization: `Basic ${Buffer.from(`${keyFor(rc).key}:`).toString("base64")}` }),
        status: 401,
        code: "invalid_api_key",
      });
      cases.push({
        name: `${rc.id} Bearer twice`,
        family: rc.family,
        sent: sent({ authorization: `Bearer ${keyFor(rc).key} ${other.key}` }),
        status: 401,
        code: "invalid_api_key",
      });
      cases.push({
        name: `${rc.id} key in a cookie`,
        family: rc.family,
        sent: sent({ cookie: `api_key=${keyFor(rc).key}` }),
        status: 401,
        code: "missing_api_key",
      });
      cases.push({
        name: `${rc.id} 5000-char key`,
        family: rc.family,
        sent: sent({ "x-api-key": "svc_test_" + "A".repeat(5000) }),
        status: 401,
        code: "invalid_api_key",
      });
    }
    await runBad(cases);
  });

  // Oversized headers are refused by the standalone server's HTTP parser (lib/server/api-server.ts), before any
  // Request exists: these two need the real process, on the same database and keys.
  describe("the standalone server's HTTP layer", () => {
    before(async () => {
      http = await startApiServer(t.url);
    });
    after(async () => {
      await http?.stop();
    });

    it("a 40 KB header → a 4xx JSON answer in family A's error shape, not a hang or a 5xx", async () => {
      const rc = byId("GET /api/v1/ticker/{symbol}/summary");
      const b = byId("GET /api/v1/data/yield-curve");
      const results: Got[] = [];
      for (const sent of [
        {
          method: "GET",
          path: "/api/v1/ticker/AAPL/summary",
          headers: { ...auth(rc), "x-pad": "a".repeat(40 * 1024) },
        },
        { method: "GET", path: "/api/v1/data/yield-curve", headers: { ...auth(b), "x-pad": "a".repeat(40 * 1024) } },
        {
          method: "GET",
          path: "/api/v1/data/yield-curve",
          headers: { "x-api-key": "svc_test_" + "A".repeat(40 * 1024) },
        },
        {
          method: "GET",
          path: "/api/v1/nope",
          headers: Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`x-h${i}`, "b".repeat(100)])),
        },
      ]) {
        const started = Date.now();
        const res = await call(http.baseUrl, sent);
        results.push(res);
        assert.ok(Date.now() - started < 5000, "answered promptly");
        assert.ok(res.status >= 400 && res.status < 500, `${describeSent(res)} → ${res.status}`);
        assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
        assert.deepEqual(Object.keys(res.json), ["error"], res.text);
        assert.deepEqual(Object.keys(res.json.error).sort(), ["code", "message"]);
        assert.equal(res.json.error.code, "invalid_request");
        assert.ok([400, 431].includes(res.status), `status ${res.status}`);
      }
      // the server is still serving, and a large but allowed header (16 KB) is fine
      const ok = await call(http.baseUrl, {
        method: "GET",
        path: "/api/v1/ticker/AAPL/summary",
        headers: { ...auth(rc), "x-pad": "a".repeat(16 * 1024) },
      });
      expectSuccessShape("A", ok, { env: "test" });
    });

    it("the 40 KB-header answer carries an X-Request-Id like every other response (docs/api-contract.md §1)", async () => {
      const res = await call(http.baseUrl, {
        method: "GET",
        path: "/api/v1/ticker/AAPL/summary",
        headers: { ...auth(byId("GET /api/v1/ticker/{symbol}/summary")), "x-pad": "a".repeat(40 * 1024) },
      });
      assert.ok(res.status >= 400 && res.status < 500, `${res.status}`);
      assert.ok(res.headers.get("x-request-id"), `X-Request-Id missing on ${res.status} ${res.text}`);
    });

    it("keeps an idle keep-alive connection 65 s (HTTP_KEEP_ALIVE_TIMEOUT_MS), not Node's 5 s", async () => {
      // A pooled client reusing a connection the server has just closed sees ECONNRESET (docs/reliability.md).
      const res = await fetch(`${http.baseUrl}/api/v1/health`);
      await res.arrayBuffer();
      assert.equal(res.headers.get("keep-alive"), "timeout=65");
    });
  });

  it("valid edge inputs are served: lower-case symbols, 50 symbols, a class-share symbol, limit 1 and 500", async () => {
    const universe = (
      await t.sql<{ symbol: string }[]>`select distinct symbol from instruments where env = 'demo' order by symbol`
    ).map((r) => r.symbol);
    const a = byId("GET /api/v1/ticker/{symbol}/summary");
    const lower = await call(base, { method: "GET", path: "/api/v1/ticker/aapl/summary", headers: auth(a) });
    assert.equal(expectSuccessShape("A", lower, { env: "test" }).symbol, "AAPL");
    const fifty = await call(base, {
      method: "GET",
      path: `/api/v1/data/watchlist-ranking?symbols=${universe.slice(0, 50).join(",").toLowerCase()}`,
      headers: auth(byId("GET /api/v1/data/watchlist-ranking")),
    });
    assert.equal(expectSuccessShape("B", fifty, { env: "test" }).symbols.length, 50);
    const dedup = await call(base, {
      method: "GET",
      path: "/api/v1/data/watchlist-ranking?symbols=AAPL,aapl,%20AAPL%20,MSFT",
      headers: auth(byId("GET /api/v1/data/watchlist-ranking")),
    });
    assert.deepEqual(expectSuccessShape("B", dedup, { env: "test" }).symbols, ["AAPL", "MSFT"]);
    const classShare = await call(base, { method: "GET", path: "/api/v1/signal-score/brk.b", headers: auth(a) });
    // a class share with a dot, case-insensitive
    assert.equal(expectSuccessShape("A", classShare, { env: "test" }).symbol, "BRK.B");
    // A partly unknown watchlist ranks the known symbols and lists the unknown one with its reason.
    const partial = await call(base, {
      method: "GET",
      path: "/api/v1/data/watchlist-ranking?symbols=AAPL,ZZZZ,SPY",
      headers: auth(byId("GET /api/v1/data/watchlist-ranking")),
    });
    const ranked = expectSuccessShape("B", partial, { env: "test" });
    assert.deepEqual(ranked.ranked.map((r: { symbol: string }) => r.symbol).sort(), ["AAPL", "SPY"]);
    assert.deepEqual(
      ranked.unknown.map((u: { symbol: string; reason: string }) => [u.symbol, u.reason]),
      [["ZZZZ", "symbol_not_found"]],
    );
    for (const limit of [1, 500]) {
      const flow = await call(base, {
        method: "GET",
        path: `/api/v1/options-flow?limit=${limit}&min_premium=0`,
        headers: auth(byId("GET /api/v1/options-flow")),
      });
      assert.ok(expectSuccessShape("A", flow, { env: "test" }).events.length <= limit);
    }
    const outputs = byId("POST /api/v1/outputs");
    const charset = await call(base, json(outputs, outputsBody, { "content-type": "application/json; charset=utf-8" }));
    expectSuccessShape("B", charset, { env: "test" });
  });

  it("POST /api/v1/outputs takes the symbol case-insensitively, like every other route (docs/api-contract.md §1)", async () => {
    const outputs = byId("POST /api/v1/outputs");
    const upper = expectSuccessShape("B", await call(base, json(outputs, outputsBody)), { env: "test" });
    const lower = await call(base, json(outputs, { ...outputsBody, symbol: "aapl" }));
    const data = expectSuccessShape("B", lower, { env: "test" });
    assert.deepEqual(Object.keys(data.output).sort(), Object.keys(upper.output).sort());
    assert.ok(!lower.text.includes('"aapl"'), "answered upper-case");
  });

  it("no bad-input answer was a 5xx or leaked a key, digest, secret, SQL or stack", () => {
    assert.ok(received.length > 300, `${received.length} responses`);
    assert.deepEqual(
      received.filter((r) => r.status >= 500).map((r) => `${describeSent(r)} → ${r.status}`),
      [],
    );
    assertNoLeaks(received);
  });

  it("every error answered is one its route declares, so the reference documents it", () => {
    const { checked, undeclared } = undeclaredErrors(received);
    assert.ok(checked > 100, `${checked} error answers checked`);
    assert.deepEqual(undeclared, []);
    assert.deepEqual(undeclaredInLog(server.output()), []);
    assert.deepEqual(undeclaredInLog(http.output()), []);
  });
});
