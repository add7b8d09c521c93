/**
 * Live keys read the live store: labels come from the as-of time of the data used and the plan's entitlement
 * (docs/api-contract.md §6); unknown symbols answer 404, known symbols without data and an empty store 503.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { startRouteHarness, type Harness } from "../helpers/route-harness";
import { accountWithKey } from "../helpers/accounts";
import { lastFridayClose, printAt, writeLiveMarket } from "../helpers/live-data";
import { writeRows } from "../../lib/market/import";

let t: TestDatabase;
let server: Harness;
let pro: string;
let starter: string;

async function get(path: string, key: string) {
  const res = await fetch(server.baseUrl + path, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as any };
}

/** The engine notices a data version change within its poll interval; wait for the answer to reflect it. */
async function eventually(path: string, key: string, ok: (r: { status: number; body: any }) => boolean) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const r = await get(path, key);
    if (ok(r) || Date.now() > deadline) return r;
    await new Promise((res) => setTimeout(res, 250));
  }
}

before(async () => {
  t = await createTestDatabase("live");
  server = await startRouteHarness(t.url);
  pro = (await accountWithKey(t.db, { plan: "pro", env: "live" })).key;
  starter = (await accountWithKey(t.db, { plan: "starter", env: "live", style: "sk" })).key;
});

after(async () => {
  await server?.stop();
  await t?.drop();
});

test("an empty live store answers 503 data_source_unavailable in each family's shape", async () => {
  const a = await get("/api/v1/ticker/AAPL/summary", pro);
  assert.equal(a.status, 503);
  assert.deepEqual(Object.keys(a.body), ["error"]);
  assert.equal(a.body.error.code, "data_source_unavailable");
  const b = await get("/api/v1/data/yield-curve", pro);
  assert.equal(b.status, 503);
  assert.equal(b.body.error.code, "data_source_unavailable");
  assert.equal(b.body.isMockData, false);
});

test("live data: labels from the data's age and the entitlement, values from the stored rows", async () => {
  const now = new Date();
  const m = await writeLiveMarket(t.db, ["AAPL", "MSFT", "SPX", "VIX"], lastFridayClose(now));
  // AAPL gets one print a minute ago and one 20 minutes ago; MSFT keeps Friday's close as its newest data.
  const fresh = printAt(m, "AAPL", new Date(now.getTime() - 60_000), "LIVE-FRESH-1");
  const older = printAt(m, "AAPL", new Date(now.getTime() - 20 * 60_000), "LIVE-OLDER-1");
  assert.ok((await writeRows(t.db, "trades", [fresh, older], "live")).ok);

  const aapl = await eventually(
    "/api/v1/ticker/AAPL/summary",
    pro,
    (r) => r.status === 200 && r.body.meta.data_freshness === "live",
  );
  assert.equal(aapl.status, 200, JSON.stringify(aapl.body));
  assert.equal(aapl.body.meta.environment, "live");
  assert.equal(aapl.body.meta.is_mock, false);
  assert.equal(aapl.body.meta.plan, "Pro");
  assert.equal(aapl.body.meta.data_freshness, "live");
  const closes = m.dailyBars.filter((b) => b.symbol === "AAPL");
  assert.equal(aapl.body.data.price, closes[closes.length - 1].close, "price is the newest stored close");

  const msft = await get("/api/v1/ticker/MSFT/summary", pro);
  assert.equal(msft.status, 200);
  assert.equal(msft.body.meta.data_freshness, "end-of-day");

  // Starter (delayed-15m entitlement) is served data at least 15 minutes old: the 20-minute-old print, not the fresh
  // one.
  const delayed = await eventually(
    "/api/v1/ai/symbol/AAPL/summary",
    starter,
    (r) => r.status === 200 && r.body.dataLabel === "delayed-15m",
  );
  assert.equal(delayed.status, 200, JSON.stringify(delayed.body));
  assert.equal(delayed.body.dataLabel, "delayed-15m");
  assert.equal(delayed.body.isMockData, false);
  assert.ok(
    new Date(delayed.body.data.asOf).getTime() <= now.getTime() - 15 * 60_000,
    "delayed view never shows data newer than 15 minutes",
  );

  const curve = await get("/api/v1/data/yield-curve", pro);
  assert.equal(curve.status, 200);
  assert.equal(curve.body.dataLabel, "end-of-day");
  assert.equal(curve.body.data.date, m.yields[m.yields.length - 1].date);
});

test("unknown live symbol → 404 symbol_not_found; known instrument without data → 503", async () => {
  const unknown = await get("/api/v1/signal-score/NVDA", pro);
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.error.code, "symbol_not_found");
  const ok = await writeRows(
    t.db,
    "instruments",
    [{ symbol: "ZZZ", name: "No Data Corp", sector: "Test", kind: "equity", nextEarningsDate: null, dividendYield: 0 }],
    "live",
  );
  assert.ok(ok.ok);
  const noData = await eventually("/api/v1/signal-score/ZZZ", pro, (r) => r.status === 503);
  assert.equal(noData.status, 503);
  assert.equal(noData.body.error.code, "data_source_unavailable");
});

test("live options-flow is pending licensing by default; test keys are served", async () => {
  const r = await get("/api/v1/options-flow", pro);
  assert.equal(r.status, 403);
  assert.equal(r.body.error.code, "endpoint_pending_licensing");
});
