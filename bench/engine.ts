/**
 * Times the analytics engine on the seeded demo universe: a full recompute (load the snapshot + computeMarketView
 * with no previous view) and an incremental one (advance the demo market a minute, load only the new history days,
 * recompute with the previous view), the way lib/engine/engine.ts does it.
 */
import type { OptionQuote } from "../lib/analytics/types";
import type { Database } from "../lib/db/client";
import { computeMarketView, type MarketView } from "../lib/engine/compute";
import { advanceDemoMarket } from "../lib/market/store";
import { loadMarketSnapshot } from "../lib/market/store-read";
import { DEMO_SEED } from "./setup";

export interface EngineTiming {
  loadMs: number;
  computeMs: number;
  totalMs: number;
}

export interface EngineResult {
  symbols: number;
  full: EngineTiming[];
  incremental: (EngineTiming & { advanceMs: number; newChain: boolean; trades: number; recomputed: number })[];
  fullMedianMs: number;
  incrementalMedianMs: number;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

const lastDate = (history: Map<string, OptionQuote[][]>) => {
  let last: string | null = null;
  for (const days of history.values()) {
    const d = days.at(-1)?.[0]?.asOf.toISOString().slice(0, 10) ?? null;
    if (d && (!last || d > last)) last = d;
  }
  return last;
};

export async function benchEngine(database: Database, seedAt: Date, runs = 3): Promise<EngineResult> {
  const full: EngineResult["full"] = [];
  let view: MarketView | null = null;
  let history = new Map<string, OptionQuote[][]>();
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const snap = await loadMarketSnapshot(database.db, "demo");
    const t1 = performance.now();
    view = computeMarketView(snap, null);
    const t2 = performance.now();
    history = snap.chainHistoryBySymbol;
    full.push({ loadMs: t1 - t0, computeMs: t2 - t1, totalMs: t2 - t0 });
  }

  const incremental: EngineResult["incremental"] = [];
  let at = seedAt.getTime();
  for (let i = 0; i < runs; i++) {
    const a0 = performance.now();
    const adv = await advanceDemoMarket(database.db, { seed: DEMO_SEED, from: at, to: at + 60_000 });
    at += 60_000;
    const advanceMs = performance.now() - a0;
    const t0 = performance.now();
    const snap = await loadMarketSnapshot(database.db, "demo", { historyAfter: lastDate(history) });
    const t1 = performance.now();
    // Held history days plus any newly closed ones (the engine's mergeHistory, without the 400-day trim).
    const merged = new Map(history);
    for (const [symbol, days] of snap.chainHistoryBySymbol) merged.set(symbol, [...(history.get(symbol) ?? []), ...days]);
    const prev: MarketView = view!;
    view = computeMarketView({ ...snap, chainHistoryBySymbol: merged }, prev);
    const t2 = performance.now();
    history = merged;
    let recomputed = 0;
    for (const [symbol, a] of view.symbols) if (prev.symbols.get(symbol)?.inputKey !== a.inputKey) recomputed++;
    incremental.push({ loadMs: t1 - t0, computeMs: t2 - t1, totalMs: t2 - t0, advanceMs, newChain: adv.newChain, trades: adv.trades, recomputed });
  }
  return {
    symbols: view?.symbols.size ?? 0,
    full,
    incremental,
    fullMedianMs: median(full.map((r) => r.totalMs)),
    incrementalMedianMs: median(incremental.map((r) => r.totalMs)),
  };
}
