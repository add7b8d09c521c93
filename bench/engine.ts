/**
 * Times the analytics engine on the seeded demo universe the way lib/engine/engine.ts runs it: a cold start (empty
 * ATM-IV cache), full recomputes of every symbol (no previous view), and incremental ones (advance the demo market a
 * minute, load what is newer, recompute with the previous view).
 */
import type { Database } from "../lib/db/client";
import { computeMarketView, type MarketView } from "../lib/engine/compute";
import { advanceDemoMarket } from "../lib/market/demo-market-writer";
import { loadMarketInput } from "../lib/engine/load";
import { IvHistoryTracker } from "../lib/engine/iv-history";
import { DEMO_SEED } from "./setup";

export interface EngineTiming {
  loadMs: number;
  computeMs: number;
  totalMs: number;
}

export interface EngineResult {
  symbols: number;
  full: EngineTiming[];
  /** One-minute advances, each with a new chain snapshot for every symbol. */
  incremental: Incremental[];
  /** A minute of the demo ticker's 5-second ticks, as a running engine sees them. */
  ticks: Incremental[];
  fullMedianMs: number;
  incrementalMedianMs: number;
  tickMedianMs: number;
}

type Incremental = EngineTiming & { advanceMs: number; newChain: boolean; trades: number; recomputed: number };
/** The demo ticker's interval (lib/market/store-ticker.ts). */
const TICK_MS = 5000;
const TICKS_PER_MINUTE = 12;

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

export async function benchEngine(database: Database, seedAt: Date, runs = 3): Promise<EngineResult> {
  // Cold: the daily ATM-IV cache is empty, so a year of end-of-day snapshots is solved once and persisted (first
  // start).
  await database.sql`delete from iv_history where env = 'demo'`;
  const c0 = performance.now();
  const coldSnap = await loadMarketInput(database.db, "demo");
  const c1 = performance.now();
  computeMarketView(coldSnap, null);
  const cold = { loadMs: c1 - c0, computeMs: performance.now() - c1, totalMs: performance.now() - c0 };

  // Full recompute of the whole universe from the store (every symbol from scratch, cache warm): what a process does
  // when it starts or when every symbol's data changed.
  const full: EngineResult["full"] = [cold];
  let view: MarketView | null = null;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const snap = await loadMarketInput(database.db, "demo");
    const t1 = performance.now();
    view = computeMarketView(snap, null);
    const t2 = performance.now();
    full.push({ loadMs: t1 - t0, computeMs: t2 - t1, totalMs: t2 - t0 });
  }

  const incremental: EngineResult["incremental"] = [];
  // The engine's tracker: its first load scans the whole cache window, later ones only after each symbol's newest day.
  // Like the engine, each load of the current market reads only what is newer than the previous one (loadMarketDelta).
  const tracker = new IvHistoryTracker();
  let loaded = await loadMarketInput(database.db, "demo", null, tracker);
  let at = seedAt.getTime();
  const step = async (ms: number): Promise<Incremental> => {
    const a0 = performance.now();
    const adv = await advanceDemoMarket(database.db, { seed: DEMO_SEED, from: at, to: at + ms });
    at += ms;
    const advanceMs = performance.now() - a0;
    const t0 = performance.now();
    loaded = await loadMarketInput(database.db, "demo", null, tracker, loaded);
    const t1 = performance.now();
    const prev: MarketView = view!;
    view = computeMarketView(loaded, prev);
    const t2 = performance.now();
    let recomputed = 0;
    for (const [symbol, a] of view.symbols) if (prev.symbols.get(symbol)?.inputKey !== a.inputKey) recomputed++;
    return {
      loadMs: t1 - t0,
      computeMs: t2 - t1,
      totalMs: t2 - t0,
      advanceMs,
      newChain: adv.newChain,
      trades: adv.trades,
      recomputed,
    };
  };
  // Minute steps: each brings every symbol a new chain snapshot (the heaviest update).
  for (let i = 0; i < runs; i++) incremental.push(await step(60_000));
  // The ticker's own rhythm: one 5-second tick after another for a minute (prints and bars each tick, one new chain).
  const ticks: Incremental[] = [];
  for (let i = 0; i < TICKS_PER_MINUTE; i++) ticks.push(await step(TICK_MS));
  return {
    symbols: view?.symbols.size ?? 0,
    full,
    incremental,
    fullMedianMs: median(full.slice(1).map((r) => r.totalMs)),
    incrementalMedianMs: median(incremental.map((r) => r.totalMs)),
    ticks,
    tickMedianMs: median(ticks.map((r) => r.totalMs)),
  };
}
