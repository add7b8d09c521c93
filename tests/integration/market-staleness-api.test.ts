/**
 * Per-kind staleness through the gateway (docs/market-data.md "Staleness"): with MARKET_DATA_PROVIDER=massive a live
 * key is refused with 503 data_source_unavailable, naming the kind and its age, when a kind the route reads is past
 * its bound, and served when it is not. The in-process route harness with an injected clock; the live store holds
 * Friday 21 Nov 2025's close (yield curve of that day, prints only until three hours before the close).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { startRouteHarness, type Harness } from "../helpers/route-harness";
import { liveKeyWithFlow, printAt, writeLiveMarket } from "../helpers/live-data";
import { writeRows } from "../../lib/market/import";
import { marketSyncStatus } from "../../lib/domain/market-sync-status";

const CLOSE = new Date("2025-11-21T21:00:00Z"); // Friday 16:00 New York
const SATURDAY = new Date("2025-11-22T15:00:00Z");
const WEDNESDAY = new Date("2025-11-26T16:00:00Z"); // 11:00 New York, in session
const NEVER = "0 0 1 1 *"; // no scheduled run fires while the file runs
const env = {
  MARKET_DATA_PROVIDER: "massive",
  MASSIVE_API_KEY: "mk_test_not_used",
  MASSIVE_BASE_URL: "http://127.0.0.1:9",
  MARKET_DATA_CRON: ["chain", "bars", "trades", "dividends", "treasury"].map((k) => `${k}=${NEVER}`).join(";"),
};

let t: TestDatabase;
let api: Harness;
let key: string;
let now = SATURDAY;
let market: Awaited<ReturnType<typeof writeLiveMarket>>;

async function get(path: string) {
  const res = await fetch(api.baseUrl + path, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as any };
}

before(async () => {
  t = await createTestDatabase("stalelive");
  market = await writeLiveMarket(t.db, ["AAPL", "MSFT", "SPX", "VIX"], CLOSE);
  // The trades feed stopped three hours before the close (before the engine first loads the store).
  await t.db.execute(
    sql`delete from option_trades where env = 'live' and ts > ${new Date(CLOSE.getTime() - 3 * 3_600_000).toISOString()}::timestamptz`,
  );
  api = await startRouteHarness(t.url, { env, clock: () => now });
  key = await liveKeyWithFlow(t.db);
});

after(async () => {
  await api?.stop();
  await t?.drop();
});

test("the yield curve: 200 while its curve is within bound, 503 with the curve's age once it is not", async () => {
  now = SATURDAY; // Friday's curve is the last one due
  const fresh = await get("/api/v1/data/yield-curve");
  assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
  assert.equal(fresh.body.isMockData, false);

  now = WEDNESDAY; // Tuesday's is due, Monday's the oldest accepted
  const stale = await get("/api/v1/data/yield-curve");
  assert.equal(stale.status, 503, JSON.stringify(stale.body));
  assert.equal(stale.body.error.code, "data_source_unavailable");
  assert.equal(stale.body.isMockData, false, "family B's shape");
  assert.equal(
    stale.body.error.message,
    "Live treasury data is 5 days old (newest yield curve 2025-11-21); its bound needs the yield curve of " +
      "2025-11-24 or a later one. The data source has not updated it.",
  );
  // A symbol route judges the chain (and bars): the same clock finds Friday's chain stale too.
  const summary = await get("/api/v1/ticker/AAPL/summary");
  assert.equal(summary.status, 503);
  assert.deepEqual(Object.keys(summary.body), ["error"], "family A's shape");
  assert.match(summary.body.error.message, /^Live chain data for AAPL is 5 days old \(newest option chain snapshot/);
});

test("stale prints refuse the options flow but not the symbol analytics; a fresh print serves the flow again", async () => {
  now = SATURDAY; // Friday's close is expected: the chain and bars are current, the prints three hours behind
  for (const path of ["/api/v1/options-flow?symbol=AAPL", "/api/v1/options-flow"]) {
    const r = await get(path);
    assert.equal(r.status, 503, `${path}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.error.code, "data_source_unavailable");
    assert.match(
      r.body.error.message,
      /^Live trades data is 2[0-1] hours old \(newest options print as of 2025-11-21T1/,
    );
    assert.match(r.body.error.message, /its bound is 60 minutes behind the market: data as of 2025-11-21T20:00:00/);
  }
  for (const path of ["/api/v1/ticker/AAPL/summary", "/api/v1/signal-score/AAPL", "/api/v1/ai/symbol/MSFT/summary"]) {
    const r = await get(path);
    assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
  }

  const print = printAt(market, "AAPL", new Date(CLOSE.getTime() - 10 * 60_000), "STALE-TEST-FRESH-1");
  assert.ok((await writeRows(t.db, "trades", [print], "live")).ok);
  const deadline = Date.now() + 15_000; // the engine picks the new version up within its poll interval
  let flow = await get("/api/v1/options-flow?symbol=AAPL");
  while (flow.status !== 200 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    flow = await get("/api/v1/options-flow?symbol=AAPL");
  }
  assert.equal(flow.status, 200, JSON.stringify(flow.body));
  assert.equal(flow.body.meta.is_mock, false);
});

test("the admin freshness table judges each kind's live data as the API does, with the same messages", async () => {
  now = WEDNESDAY;
  const status = await marketSyncStatus(t.db, now);
  const data = (kind: string) => status.kinds.find((k) => k.kind === kind)?.data;
  const answers = {
    treasury: (await get("/api/v1/data/yield-curve")).body.error.message,
    chain: (await get("/api/v1/ticker/AAPL/summary")).body.error.message,
    trades: (await get("/api/v1/options-flow")).body.error.message,
  };
  assert.deepEqual(data("treasury")?.stale, [{ subject: null, message: answers.treasury }]);
  assert.deepEqual(data("trades")?.stale, [{ subject: null, message: answers.trades }]);
  assert.deepEqual(
    data("chain")?.stale.find((s) => s.subject === "AAPL"),
    { subject: "AAPL", message: answers.chain },
  );
  assert.ok(data("chain")?.stale.some((s) => s.subject === "MSFT"));
  assert.match(
    data("bars")?.stale.find((s) => s.subject === "AAPL")?.message ?? "",
    /needs the daily bar of 2025-11-26/,
  );
  assert.equal(data("treasury")?.asOf, "2025-11-21T21:00:00.000Z");
  assert.deepEqual(data("dividends"), { bound: null, asOf: null, stale: [] });

  // On Saturday everything the store holds is within its bound, the print added above included.
  const saturday = await marketSyncStatus(t.db, SATURDAY);
  assert.deepEqual(
    saturday.kinds.filter((k) => k.data.stale.length > 0).map((k) => k.kind),
    [],
  );
  assert.equal(saturday.kinds.find((k) => k.kind === "chain")?.data.bound, data("chain")?.bound);
});
