/** The persisted daily ATM-IV cache: filled once, identical to solving from scratch, dropped when its inputs change. */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { lastFridayClose } from "../helpers/live-data";
import { loadMarketInput } from "../../lib/engine/load";
import { computeMarketView } from "../../lib/engine/compute";
import { writeRows } from "../../lib/market/import";

let t: TestDatabase;
before(async () => {
  t = await createSeededTestDatabase("ivcache", {
    seed: "options-research-demo-v1",
    now: lastFridayClose(new Date()),
    ivHistory: "empty",
  });
});
after(async () => t?.drop());

const ranks = (view: ReturnType<typeof computeMarketView>) =>
  JSON.stringify(
    [...view.symbols].map(([s, a]) => [s, a.metrics.ivRank, a.metrics.ivPercentile, a.metrics.ivLookbackDays]),
  );

test("a cold load solves every history day once and persists it; a warm load reads the same values", async () => {
  const cold = computeMarketView(await loadMarketInput(t.db, "demo"), null);
  const [{ n }] = await t.sql`select count(*)::int as n from iv_history where env = 'demo'`;
  const [{ days }] =
    await t.sql`select count(distinct (symbol, (as_of at time zone 'UTC')::date))::int as days from option_quotes where env = 'demo'`;
  assert.equal(n, days - cold.symbols.size, "one row per symbol and history day (the current day is not history)");
  const [{ written }] = await t.sql`select max(computed_at) as written from iv_history`;
  const warm = computeMarketView(await loadMarketInput(t.db, "demo"), null);
  const [{ again }] = await t.sql`select max(computed_at) as again from iv_history`;
  assert.deepEqual(again, written, "a warm load solves nothing");
  assert.equal(ranks(warm), ranks(cold));
  const aapl = warm.symbols.get("AAPL")!.metrics;
  assert.ok(aapl.ivLookbackDays >= 200 && aapl.ivRank !== null, "IV rank rests on about a year of history");
});

test("an import that rewrites a day's chain, closes, curve or dividend drops the values derived from it", async () => {
  const [day] =
    await t.sql`select symbol, date::text as date from iv_history where env = 'demo' and symbol = 'MSFT' order by date limit 1`;
  const quotes =
    await t.sql`select symbol, as_of, expiry::text as expiry, strike, "right", bid, ask, last, volume, open_interest
    from option_quotes where env = 'demo' and symbol = 'MSFT' and (as_of at time zone 'UTC')::date = ${day.date}::date limit 2`;
  const rows = quotes.map((q) => ({
    symbol: q.symbol,
    asOf: new Date(q.as_of),
    expiry: q.expiry,
    strike: q.strike,
    right: q.right,
    bid: q.bid,
    ask: q.ask,
    last: q.last,
    volume: Number(q.volume),
    openInterest: Number(q.open_interest),
  }));
  const written = await writeRows(t.db, "chain", rows, "demo");
  assert.ok(written.ok, JSON.stringify(written.errors));
  const left =
    await t.sql`select 1 from iv_history where env = 'demo' and symbol = 'MSFT' and date = ${day.date}::date`;
  assert.equal(left.length, 0);
  const others = await t.sql`select count(*)::int as n from iv_history where env = 'demo' and symbol = 'MSFT'`;
  assert.ok(others[0].n > 100, "other days stay cached");
  // The next load solves the dropped day again.
  await loadMarketInput(t.db, "demo");
  assert.equal(
    (await t.sql`select 1 from iv_history where env = 'demo' and symbol = 'MSFT' and date = ${day.date}::date`).length,
    1,
  );
});
