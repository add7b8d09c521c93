/**
 * History of the published metrics: the demo's year of daily snapshots against the engine's computation from the
 * stored data (recomputed here by the engine's own load path), `as_of`, JSON against CSV, and bad input.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { startRouteHarness, type Harness } from "../helpers/route-harness";
import { accountWithKey } from "../helpers/accounts";
import { lastFridayClose } from "../helpers/live-data";
import { demoInstrumentsOn, snapshotsAfterTick, writeDailySnapshots } from "../../lib/engine/history";
import { loadMarketSnapshot } from "../../lib/market/store-read";
import { advanceDemoMarket } from "../../lib/market/demo-market-writer";
import { loadIvHistory } from "../../lib/market/iv-history-store";
import { demoInstruments } from "../../lib/market/demo/simulator";
import { newYorkDate } from "../../lib/analytics/exchange-calendar";
import { computeMarketView } from "../../lib/engine/compute";
import { signalScoreData } from "../../lib/engine/payloads";
import { DISCLAIMER } from "../../lib/contract/disclaimer";

const SEED = "options-research-demo-v1";
const DAY_MS = 86_400_000;
let t: TestDatabase;
let server: Harness;
let key: string;
let seededAt: Date;

before(async () => {
  seededAt = lastFridayClose(new Date());
  // The seed with its year of snapshots (seedDemoMarketWithHistory), shared within a run with restricted-login's.
  t = await createSeededTestDatabase("history", { seed: SEED, now: seededAt, history: true });
  server = await startRouteHarness(t.url);
  await t.sql`update plans set a_per_minute = 100000, a_per_month = 100000, b_per_minute = 100000, b_per_day = 100000`;
  key = (await accountWithKey(t.db)).key;
});

after(async () => {
  await server?.stop();
  await t?.drop();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } });
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const lastDay = () => isoDay(+seededAt);

/** The stored rows of a day, by symbol. */
async function storedDay(date: string) {
  const rows = await t.sql`select symbol, price, iv_rank, iv_percentile, atm_iv_30d, skew_25d, term_slope,
    expected_move, expected_move_pct, service_score, sentiment, risk_level, no_trade_decision, failed_checks,
    components, round(extract(epoch from as_of) * 1000)::float8 as as_of_ms
    from metric_snapshots where env = 'demo' and date = ${date}::date order by symbol`;
  return new Map(rows.map((r) => [r.symbol as string, r]));
}

test("the seed writes a year of daily snapshots, one row per symbol with options and session day", async () => {
  const [{ days, rows, first, last }] = await t.sql`select count(distinct date)::int as days, count(*)::int as rows,
    min(date)::text as first, max(date)::text as last from metric_snapshots where env = 'demo'`;
  assert.ok(days >= 250, `a year of session days (${days})`);
  assert.equal(last, lastDay(), "the seeded day closed: it has its snapshot");
  assert.ok(first <= isoDay(+seededAt - 345 * DAY_MS), `back about a year: 252 sessions before the last (${first})`);
  const [{ symbols }] =
    await t.sql`select count(distinct symbol)::int as symbols from option_quotes where env = 'demo' and as_of = ${seededAt.toISOString()}::timestamptz`;
  assert.equal(rows, days * symbols, "every symbol with a chain, every day");
});

test("a sample of days equals the engine's own computation from the stored data as of each day's close", async () => {
  const dates = (await t.sql`select distinct date::text as d from metric_snapshots where env = 'demo' order by 1`).map(
    (r) => r.d as string,
  );
  const sample = [dates[5], dates[60], dates[130], dates[200], dates[dates.length - 1]];
  for (const date of sample) {
    const close = new Date(`${date}T21:00:00Z`);
    // The engine's load path with the day's close as cutoff (the live store's view of that instant), not ours.
    const snap = await loadMarketSnapshot(t.db, "demo", { cutoff: close, withHistory: false });
    const trades = new Map(
      [...snap.tradesBySymbol].map(([s, list]) => [s, list.filter((x) => newYorkDate(x.ts) === date)] as const),
    );
    const view = computeMarketView(
      {
        ...snap,
        instruments: demoInstruments(SEED, Date.parse(`${date}T20:00:00Z`)), // as the ticker stored them that day
        tradesBySymbol: new Map([...trades].filter(([, list]) => list.length > 0)),
        ivHistoryBySymbol: await loadIvHistory(t.db, "demo", close),
      },
      null,
    );
    const stored = await storedDay(date);
    assert.equal(stored.size, view.symbols.size, `${date}: one row per computed symbol`);
    for (const [symbol, a] of view.symbols) {
      const row = stored.get(symbol);
      assert.ok(row, `${date} ${symbol} stored`);
      const m = signalScoreData(a);
      const expected = {
        price: a.metrics.spot,
        iv_rank: m.metrics.iv_rank,
        iv_percentile: m.metrics.iv_percentile,
        atm_iv_30d: m.metrics.atm_iv_30d,
        skew_25d: m.metrics.skew_25d,
        term_slope: m.metrics.term_slope,
        expected_move: m.metrics.expected_move?.move ?? null,
        expected_move_pct: m.metrics.expected_move?.move_pct ?? null,
        service_score: m.service_score,
        sentiment: m.sentiment,
        risk_level: m.risk_level,
        no_trade_decision: a.noTrade.decision,
        failed_checks: a.noTrade.checks.filter((c) => c.status === "fail").map((c) => c.id),
        components: Object.fromEntries(m.components.map((c) => [c.name, c.score])),
        as_of_ms: a.asOf.getTime(),
      };
      const actual = Object.fromEntries(Object.keys(expected).map((k) => [k, row[k]]));
      assert.deepEqual(actual, expected, `${date} ${symbol}`);
    }
  }
});

test("recomputing a day is idempotent, and the ticker's leader writes the day a close passes", async () => {
  const day = lastDay();
  const before = await storedDay(day);
  await t.sql`delete from metric_snapshots where env = 'demo' and date = ${day}::date`;
  await snapshotsAfterTick(t.db, SEED, { reseeded: false, from: +seededAt - 60_000, to: +seededAt + 60_000 });
  assert.deepEqual(await storedDay(day), before, "written again at the close, identical");
  const run = await writeDailySnapshots(t.db, "demo", { days: [day] });
  assert.equal(run.days, 1);
  const [{ n }] =
    await t.sql`select count(*)::int as n from metric_snapshots where env = 'demo' and date = ${day}::date`;
  assert.equal(n, before.size, "an upsert: no duplicate rows");
});

test("a test key reads its account plan's window (test mode mirrors live); the refusal names the plan", async () => {
  const friday = isoDay(+seededAt - 49 * DAY_MS); // seven weeks back: past Sandbox's 30 days, within Pro's 400
  const pro = await accountWithKey(t.db, { plan: "pro", env: "test" });
  const res = await fetch(`${server.baseUrl}/api/v1/history/AAPL?from=${friday}`, {
    headers: { authorization: `Bearer ${pro.key}` },
  });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  assert.ok(body.data.rows[0].date < isoDay(Date.now() - 30 * DAY_MS), "a session day older than Sandbox's window");
  assert.equal(body.isMockData, true);
  const refused = await get(`/api/v1/history/AAPL?from=${friday}`); // a Sandbox account's test key
  assert.equal(refused.status, 403);
  assert.match((await refused.json()).error.message, /^The Sandbox \(Free Sandbox\) plan reads history back 30 days/);
});

test("as_of answers the stored day in the same shape as today's answer", async () => {
  const day = isoDay(+seededAt - 7 * DAY_MS); // the Friday before: within Sandbox's 30 days
  const stored = (await storedDay(day)).get("AAPL");
  assert.ok(stored);
  const asOf = new Date(stored.as_of_ms).toISOString();
  const ticker = await (await get(`/api/v1/ticker/AAPL/summary?as_of=${day}`)).json();
  const today = await (await get("/api/v1/ticker/AAPL/summary")).json();
  assert.deepEqual(Object.keys(ticker.data).sort(), Object.keys(today.data).sort());
  assert.equal(ticker.data.as_of, asOf);
  assert.equal(ticker.data.price, stored.price);
  assert.equal(ticker.data.iv_rank, stored.iv_rank);
  assert.equal(ticker.data.atm_iv_30d, stored.atm_iv_30d);
  assert.equal(ticker.data.service_score, stored.service_score);
  assert.equal(ticker.data.risk_level, stored.risk_level);
  assert.equal(ticker.meta.data_freshness, "demo");

  const signal = (await (await get(`/api/v1/signal-score/aapl?as_of=${day}`)).json()).data;
  assert.equal(signal.as_of, asOf);
  assert.equal(signal.metrics.skew_25d, stored.skew_25d);
  assert.equal(signal.metrics.term_slope, stored.term_slope);
  assert.equal(signal.metrics.iv_percentile, stored.iv_percentile);
  assert.deepEqual(Object.fromEntries(signal.components.map((c: any) => [c.name, c.score])), stored.components);

  const ai = await (await get(`/api/v1/ai/symbol/AAPL/summary?as_of=${day}`)).json();
  assert.equal(ai.data.asOf, asOf);
  assert.equal(ai.data.serviceScore, stored.service_score);
  assert.equal(ai.data.summary, ticker.data.summary);
  assert.equal(ai.dataLabel, "demo");
  const noTrade = (await (await get(`/api/v1/ai/symbol/AAPL/no-trade?as_of=${day}`)).json()).data;
  assert.equal(noTrade.asOf, asOf);
  assert.equal(noTrade.decision, stored.no_trade_decision);
  assert.deepEqual(
    noTrade.checks.filter((c: any) => c.status === "fail").map((c: any) => c.id),
    stored.failed_checks,
  );
  assert.equal(noTrade.disclaimer, DISCLAIMER);
});

test("the history route answers JSON and CSV with the same numbers, and one day", async () => {
  const from = isoDay(+seededAt - 20 * DAY_MS);
  const to = lastDay();
  const res = await get(`/api/v1/history/AAPL?from=${from}&to=${to}`);
  assert.equal(res.status, 200);
  const json = await res.json();
  assert.equal(json.dataLabel, "demo");
  const { rows, columns } = json.data;
  assert.ok(rows.length >= 14, `two to three weeks of session days (${rows.length})`);
  assert.deepEqual(
    rows.map((r: any) => r.date),
    [...rows.map((r: any) => r.date)].sort(),
  );
  assert.ok(columns.includes("component_momentum20d") && columns.includes("failed_checks"));
  for (const variant of [
    get(`/api/v1/history/AAPL?from=${from}&to=${to}&format=csv`),
    get(`/api/v1/history/AAPL?from=${from}&to=${to}`, { accept: "text/csv" }),
  ]) {
    const r = await variant;
    assert.equal(r.status, 200);
    assert.match(r.headers.get("content-type") ?? "", /^text\/csv/);
    const text = await r.text();
    assert.equal(text.split("\n")[0], `# ${DISCLAIMER}`);
    const records = parse(text, { comment: "#", columns: true }) as Record<string, string>[];
    assert.equal(records.length, rows.length);
    assert.deepEqual(Object.keys(records[0]), ["date", "data_label", "as_of", ...columns]);
    rows.forEach((row: any, i: number) => {
      for (const c of ["date", "data_label", "as_of", ...columns]) {
        const v = row[c];
        const cell = v === null ? "" : Array.isArray(v) ? v.join(";") : String(v);
        assert.equal(records[i][c], cell, `${row.date} ${c}`);
      }
    });
  }
  const some = await (await get(`/api/v1/history/aapl?from=${from}&to=${to}&fields=iv_rank,price`)).json();
  assert.deepEqual(some.data.columns, ["price", "iv_rank"]);
  assert.deepEqual(Object.keys(some.data.rows[0]), ["date", "data_label", "as_of", "price", "iv_rank"]);
  const day = await (await get(`/api/v1/history/AAPL/${to}`)).json();
  assert.deepEqual(
    Object.fromEntries(columns.map((c: string) => [c, day.data[c]])),
    Object.fromEntries(columns.map((c: string) => [c, rows.at(-1)[c]])),
  );
});

test("bad input gets the contract's errors and writes nothing", async () => {
  const [{ n: before }] = await t.sql`select count(*)::int as n, max(computed_at) as at from metric_snapshots`;
  const today = newYorkDate(new Date());
  const old = isoDay(Date.now() - 45 * DAY_MS);
  const saturday = isoDay(+seededAt - 6 * DAY_MS);
  const cases: [string, number, string][] = [
    [`/api/v1/history/AAPL?from=${lastDay()}&to=${isoDay(+seededAt - DAY_MS)}`, 400, "invalid_request"],
    ["/api/v1/history/AAPL?from=2024-01-01&to=2025-06-01", 400, "invalid_request"],
    ["/api/v1/history/AAPL?fields=price,vega", 400, "invalid_request"],
    ["/api/v1/history/AAPL?from=2026-02-30", 400, "invalid_request"],
    ["/api/v1/history/AAPL?from=yesterday", 400, "invalid_request"],
    ["/api/v1/history/AAPL?format=xml", 400, "invalid_request"],
    [`/api/v1/history/AAPL?from=${old}`, 403, "subscription_required"],
    [`/api/v1/history/AAPL/${old}`, 403, "subscription_required"],
    [`/api/v1/ticker/AAPL/summary?as_of=${old}`, 403, "subscription_required"],
    [`/api/v1/ticker/AAPL/summary?as_of=${today}`, 400, "invalid_request"],
    ["/api/v1/ai/symbol/AAPL/no-trade?as_of=11/20/2026", 400, "invalid_request"],
    [`/api/v1/signal-score/AAPL?as_of=${saturday}`, 404, "not_found"],
    [`/api/v1/history/AAPL/${saturday}`, 404, "not_found"],
    ["/api/v1/history/ZZZZ", 404, "symbol_not_found"],
    [`/api/v1/ai/symbol/ZZZZ/summary?as_of=${lastDay()}`, 404, "symbol_not_found"],
    ["/api/v1/history/AAPL?as_of=2026-01-01", 400, "invalid_request"],
  ];
  for (const [path, status, code] of cases) {
    const res = await get(path);
    const body = await res.json();
    assert.equal(res.status, status, `${path}: ${JSON.stringify(body)}`);
    assert.equal(body.error.code, code, path);
    assert.equal(typeof body.error.message, "string");
  }
  const [{ n: afterCount }] = await t.sql`select count(*)::int as n from metric_snapshots`;
  assert.equal(afterCount, before);
});

/** HISTORY_CACHE_CHECK_MS as the test server runs (the default): the most a write waits to show in a history answer. */
const CHECK_MS = Number(process.env.HISTORY_CACHE_CHECK_MS ?? 1000);
const pastCheck = () => new Promise((r) => setTimeout(r, CHECK_MS + 100));

test("a write to a past day from another process shows in the next history call after HISTORY_CACHE_CHECK_MS", async () => {
  const from = isoDay(+seededAt - 20 * DAY_MS);
  const day = isoDay(+seededAt - 7 * DAY_MS); // a past session day inside the range
  const path = `/api/v1/history/AAPL?from=${from}&to=${lastDay()}`;
  const json = async () => (await (await get(path)).json()).data;
  const csv = async () =>
    parse(await (await get(`${path}&fields=price`, { accept: "text/csv" })).text(), {
      comment: "#",
      columns: true,
    }) as { date: string; price: string }[];
  const rowOf = (rows: { date: string }[]) => rows.find((r) => r.date === day) as Record<string, any> | undefined;

  const first = await json();
  assert.deepEqual(await json(), first, "the same answer again (now from the process's kept answers)");
  const firstCsv = await csv();
  assert.deepEqual(await csv(), firstCsv);
  const price = rowOf(first.rows)?.price as number;
  assert.equal(typeof price, "number");

  // This test process is not the server: the write reaches it only through the store.
  await t.sql`update metric_snapshots set price = price + 1000 where env = 'demo' and symbol = 'AAPL' and date = ${day}::date`;
  await pastCheck();
  assert.equal(rowOf((await json()).rows)?.price, price + 1000, "JSON: the updated day");
  assert.equal(Number(rowOf(await csv())?.price), price + 1000, "CSV: the updated day");

  await t.sql`delete from metric_snapshots where env = 'demo' and symbol = 'AAPL' and date = ${day}::date`;
  await pastCheck();
  const without = await json();
  assert.equal(without.count, first.count - 1);
  assert.equal(rowOf(without.rows), undefined, "a deleted day is gone");
  assert.equal(rowOf(await csv()), undefined);

  await writeDailySnapshots(t.db, "demo", { days: [day], instrumentsOn: demoInstrumentsOn(SEED) });
  await pastCheck();
  assert.deepEqual(await json(), first, "recomputed: the stored day as before");
  assert.deepEqual(await csv(), firstCsv);
});

test("the night session (demo clock) writes no history day, and a day recomputed after it keeps its close's inputs", async () => {
  const day = lastDay();
  const counts = async () =>
    (
      await t.sql`select symbol, sweep_count, block_count, round(extract(epoch from as_of) * 1000)::float8 as as_of_ms
      from metric_snapshots where env = 'demo' and date = ${day}::date order by symbol`
    ).map((r) => ({ ...r }));
  const before = await counts();
  // Saturday 22:00 UTC: Friday's night session, past a Saturday "close"; its first hours print on Friday's New York date.
  const saturday = +seededAt + 25 * 3_600_000;
  await advanceDemoMarket(t.db, { seed: SEED, from: +seededAt, to: saturday });
  await snapshotsAfterTick(t.db, SEED, { reseeded: false, from: +seededAt, to: saturday });
  await writeDailySnapshots(t.db, "demo", {
    since: isoDay(+seededAt - 3 * DAY_MS),
    instrumentsOn: demoInstrumentsOn(SEED),
  });
  const [{ n }] =
    await t.sql`select count(*)::int as n from option_trades where env = 'demo' and ts > ${seededAt.toISOString()}::timestamptz`;
  assert.ok(n > 500, `the night printed (${n} prints)`);
  assert.deepEqual(await counts(), before, "the day's as_of and flow counts are its close's");
  const later =
    await t.sql`select distinct date::text as d from metric_snapshots where env = 'demo' and date > ${day}::date`;
  assert.deepEqual(
    later.map((r) => r.d),
    [],
    "no history day of the night's own",
  );
});
