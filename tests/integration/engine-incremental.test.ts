/**
 * Engine ticks that cost little. Later loads look for history days only after each symbol's newest cached
 * day (and fall back to the full scan when the cache shrank); a recompute keeps the analytics — and the payloads —
 * of every symbol whose inputs did not change.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { lastFridayClose } from "../helpers/live-data";
import { advanceDemoMarket, seedDemoMarket } from "../../lib/market/demo-market-writer";
import { loadMarketDelta, loadMarketSnapshot } from "../../lib/market/store-read";
import { bumpMarketVersion } from "../../lib/market/versions";
import { loadMarketInput } from "../../lib/engine/load";
import { computeMarketView, type MarketView } from "../../lib/engine/compute";
import { IvHistoryTracker } from "../../lib/engine/iv-history";
import { createQueries } from "../../lib/engine/queries";
import { findHistoryGaps, findRecentHistoryGaps } from "../../lib/market/iv-history-store";
import type { Served, ViewSpec } from "../../lib/engine/types";

let t: TestDatabase;
before(async () => {
  t = await createSeededTestDatabase("engineinc", {
    seed: "options-research-demo-v1",
    now: lastFridayClose(new Date()),
    ivHistory: "empty", // the first load below fills the cache
  });
});
after(async () => t?.drop());

const rows = async () => (await t.sql`select count(*)::int as n from iv_history where env = 'demo'`)[0].n as number;
const spec: ViewSpec = { env: "demo", entitlement: "demo" };

test("the recent-gap scan finds the days after each symbol's newest cached day, like the full scan", async () => {
  const tracker = new IvHistoryTracker();
  await loadMarketInput(t.db, "demo", null, tracker); // first load: full scan fills the cache
  const full = await rows();
  assert.ok(full > 0);
  assert.deepEqual(await findRecentHistoryGaps(t.db, "demo", null), []);
  // Drop the newest three cached days of one symbol: both scans see exactly those days.
  await t.sql`delete from iv_history where env = 'demo' and symbol = 'AAPL'
    and date in (select date from iv_history where env = 'demo' and symbol = 'AAPL' order by date desc limit 3)`;
  const recent = await findRecentHistoryGaps(t.db, "demo", null);
  assert.equal(recent.length, 3);
  assert.deepEqual(recent, await findHistoryGaps(t.db, "demo", null));
  // A hole in the middle is invisible to the recent scan; the tracker sees the cache shrank and scans everything.
  await t.sql`delete from iv_history where env = 'demo' and symbol = 'MSFT'
    and date = (select date from iv_history where env = 'demo' and symbol = 'MSFT' order by date limit 1 offset 10)`;
  assert.equal(
    (await findRecentHistoryGaps(t.db, "demo", null)).some((g) => g.symbol === "MSFT"),
    false,
  );
  // Without a new base version the tracker trusts what it holds (only rebasing writes invalidate the cache)...
  const held = await loadMarketInput(t.db, "demo", null, tracker);
  assert.equal(await rows(), full - 4, "nothing solved within the same base");
  assert.ok(held.ivHistoryBySymbol.get("AAPL")!.length > 0);
  // ...and an invalidation comes with a rebase, as imports and seeds do.
  await bumpMarketVersion(t.db, "demo");
  await loadMarketInput(t.db, "demo", null, tracker);
  assert.equal(await rows(), full, "every dropped day solved again");
});

test("an unchanged symbol keeps its analytics and payload objects; a changed one is recomputed", async () => {
  const tracker = new IvHistoryTracker();
  let view: MarketView = computeMarketView(await loadMarketInput(t.db, "demo", null, tracker), null);
  const queries = createQueries(
    () => view,
    () => new Date(),
  );
  const data = (s: string) => (queries.tickerSummary(spec, s) as Served<Record<string, unknown>>).data;
  const signal = (s: string) => (queries.signalScore(spec, s) as Served<Record<string, unknown>>).data;
  const before = {
    aapl: data("AAPL"),
    msft: data("MSFT"),
    aaplSignal: signal("AAPL"),
    aaplA: view.symbols.get("AAPL"),
    msftA: view.symbols.get("MSFT"),
  };
  assert.equal(data("AAPL"), before.aapl, "built once per analytics object");

  // Only MSFT's inputs change (its next earnings date); market-wide context stays the same.
  await t.sql`update instruments set next_earnings_date = coalesce(next_earnings_date, current_date) + 7 where env = 'demo' and symbol = 'MSFT'`;
  const previous = view;
  view = computeMarketView(await loadMarketInput(t.db, "demo", null, tracker), previous);
  assert.equal(view.symbols.get("AAPL"), before.aaplA, "AAPL's analytics object reused");
  assert.equal(data("AAPL"), before.aapl, "AAPL's payload object reused");
  assert.equal(signal("AAPL"), before.aaplSignal);
  assert.notEqual(view.symbols.get("MSFT"), before.msftA, "MSFT recomputed");
  assert.notEqual(view.symbols.get("MSFT")!.inputKey, before.msftA!.inputKey);
  assert.notEqual(data("MSFT"), before.msft, "MSFT's payload rebuilt");
  assert.deepEqual(data("MSFT").symbol, "MSFT");
});

test("a delta load after demo ticks equals a full read: within a session (appends), in the night session (appends), at rest (nothing written) and across a roll-over (rebase)", async () => {
  const seed = "options-research-demo-v1";
  const close = lastFridayClose(new Date()).getTime();
  let at = close - 3.5 * 3_600_000; // Friday 17:30 UTC, mid-session
  await seedDemoMarket(t.db, { seed, now: at });
  const full = () => loadMarketSnapshot(t.db, "demo", { withHistory: false });
  let previous = await full();
  const step = async (to: number) => {
    const r = await advanceDemoMarket(t.db, { seed, from: at, to });
    at = to;
    const delta = await loadMarketDelta(t.db, "demo", previous);
    assert.deepEqual(delta, await full(), `delta load at ${new Date(to).toISOString()} equals the full read`);
    previous = delta;
    return r;
  };
  const base = previous.baseVersion;
  let newChains = 0;
  for (let i = 1; i <= 6; i++) newChains += (await step(at + 60_000)).newChain ? 1 : 0;
  assert.ok(newChains > 0, "the ticks wrote newer chain snapshots");
  assert.equal(previous.baseVersion, base, "ticks inside a session only append");
  assert.ok(previous.version > base);

  // Past the close and into the weekend: the close's ticks append, and so do the night session's (prints and a chain
  // each minute, lib/market/demo/clock.ts); a tick that brings neither writes nothing, not even a version.
  await step(close + 60_000);
  const beforeNight = previous.version;
  const night = await step(close + 30 * 3_600_000);
  assert.ok(night.trades > 0 && night.newChain, "the night session prints and quotes");
  assert.ok(previous.version > beforeNight);
  assert.equal(previous.baseVersion, base, "the night session only appends");
  const resting = previous.version;
  const r = await step(at + 1);
  assert.equal(r.version, resting, "a tick with no print and no new minute bumps no version");
  assert.equal(previous.version, resting);

  // Monday's open rolls the session over (pruning, new instruments and yields): a rebase, and the delta load reads
  // everything.
  await step(close + (2 * 24 + 17.5) * 3_600_000 + 60_000);
  assert.ok(previous.baseVersion > base, "a roll-over is a rebase");
});
