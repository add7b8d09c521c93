/**
 * Keeps the daily ATM-IV history behind IV rank and percentile: solves only the history days the cache lacks, a few
 * symbols at a time (bounded memory), each with the Treasury curve in force that day, and persists the results.
 */
import type { Db } from "../db/client";
import { exerciseStyleOf, type Bar, type Instrument, type MarketEnv, type TreasuryYield } from "../analytics/types";
import { atmIvHistory, closesByDate } from "../analytics/iv-history";
import { buildYieldCurve, riskFreeRate } from "../analytics/yield-curve";
import {
  countIvHistory,
  findHistoryGaps,
  findRecentHistoryGaps,
  loadIvHistory,
  loadSnapshots,
  loadYieldHistory,
  saveIvHistory,
  type HistoryGap,
} from "../market/iv-history-store";
import { getOrInsert } from "../util/get-or-insert";

const SYMBOLS_PER_CHUNK = 2; // ~8k quotes in memory at a time: bounds the cold start's peak
const NO_RATE = () => 0;

/** Rate function for each date: the newest curve published on or before it (zero when none is). */
function ratesByDate(yields: TreasuryYield[]): (date: string) => (years: number) => number {
  const byDate = new Map<string, TreasuryYield[]>();
  for (const y of yields) getOrInsert(byDate, y.date, () => []).push(y);
  const dates = [...byDate.keys()].sort();
  const curves = new Map<string, (years: number) => number>();
  return (date) => {
    let lo = 0;
    let hi = dates.length - 1;
    let found: string | null = null;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (dates[mid] <= date) {
        found = dates[mid];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (!found) return NO_RATE;
    const on = found;
    return getOrInsert(curves, on, () => {
      const curve = buildYieldCurve(byDate.get(on) ?? []);
      return curve ? riskFreeRate(curve.curve) : NO_RATE;
    });
  };
}

export async function fillIvHistory(
  db: Db,
  env: MarketEnv,
  cutoff: Date | null,
  instruments: Instrument[],
  dailyBarsBySymbol: Map<string, Bar[]>,
): Promise<number> {
  return solveGaps(db, env, await findHistoryGaps(db, env, cutoff), instruments, dailyBarsBySymbol);
}

/** Solves and persists the given history days, a few symbols at a time. */
async function solveGaps(
  db: Db,
  env: MarketEnv,
  gaps: HistoryGap[],
  instruments: Instrument[],
  dailyBarsBySymbol: Map<string, Bar[]>,
): Promise<number> {
  if (gaps.length === 0) return 0;
  const rateOn = ratesByDate(await loadYieldHistory(db, env));
  const dividend = new Map(instruments.map((i) => [i.symbol, i.dividendYield]));
  const style = new Map(instruments.map((i) => [i.symbol, exerciseStyleOf(i)]));
  const bySymbol = new Map<string, HistoryGap[]>();
  for (const g of gaps) getOrInsert(bySymbol, g.symbol, () => []).push(g);
  const symbols = [...bySymbol.keys()];
  for (let i = 0; i < symbols.length; i += SYMBOLS_PER_CHUNK) {
    const chunk = symbols.slice(i, i + SYMBOLS_PER_CHUNK);
    const snapshots = await loadSnapshots(
      db,
      env,
      chunk.flatMap((s) => bySymbol.get(s) ?? []),
    );
    const points: { symbol: string; date: string; atmIv30: number }[] = [];
    for (const symbol of chunk) {
      const closes = closesByDate(dailyBarsBySymbol.get(symbol) ?? []);
      const q = dividend.get(symbol) ?? 0;
      for (const snap of snapshots.get(symbol) ?? []) {
        const date = snap[0].asOf.toISOString().slice(0, 10);
        const [point] = atmIvHistory([snap], closes, rateOn(date), q, 30, style.get(symbol));
        points.push({ symbol, date, atmIv30: point?.atmIv30 ?? Number.NaN });
      }
    }
    await saveIvHistory(db, env, points);
  }
  return gaps.length;
}

type IvHistory = Map<string, { date: string; atmIv30: number }[]>;
/** Loaded history is kept per environment and cutoff date (its window). */
const historyKey = (env: MarketEnv, cutoff: Date | null) => `${env}|${cutoff?.toISOString().slice(0, 10) ?? ""}`;

/**
 * The engine's incremental view of the cache: the first load per environment scans the whole window; later ones scan
 * only after each symbol's newest cached day, and reuse the loaded history while nothing was added or removed.
 */
export class IvHistoryTracker {
  private readonly known = new Map<MarketEnv, number>(); // rows in the cache after our last load
  private readonly loaded = new Map<string, { rows: number; day: string; history: IvHistory }>();

  /** The base version and day of the last load of each environment's current market (no cutoff). */
  private readonly bases = new Map<MarketEnv, string>();

  /**
   * `baseVersion`: the market's base version (see market_data_versions). Within one base and one UTC day the cache
   * cannot change: writes that invalidate it are rebases, and an appended end-of-day snapshot is history only from the
   * next day. Such a load answers the history it holds without a query.
   */
  async load(
    db: Db,
    env: MarketEnv,
    cutoff: Date | null,
    instruments: Instrument[],
    bars: Map<string, Bar[]>,
    baseVersion?: number,
  ): Promise<IvHistory> {
    const day = new Date().toISOString().slice(0, 10);
    const base = cutoff === null && baseVersion !== undefined ? `${baseVersion}|${day}` : null;
    const held = this.loaded.get(historyKey(env, null));
    if (base !== null && held && this.bases.get(env) === base) return held.history;
    const history = await this.scanAndLoad(db, env, cutoff, instruments, bars, day);
    if (base !== null) this.bases.set(env, base);
    return history;
  }

  private async scanAndLoad(
    db: Db,
    env: MarketEnv,
    cutoff: Date | null,
    instruments: Instrument[],
    bars: Map<string, Bar[]>,
    day: string,
  ): Promise<IvHistory> {
    const before = await countIvHistory(db, env);
    const known = this.known.get(env);
    const shrank = known === undefined || before < known;
    const gaps = shrank ? await findHistoryGaps(db, env, cutoff) : await findRecentHistoryGaps(db, env, cutoff);
    const added = await solveGaps(db, env, gaps, instruments, bars);
    const rows = added ? await countIvHistory(db, env) : before;
    this.known.set(env, rows);
    // The loaded history depends on the cutoff's date and today's (its window), and on the rows present.
    const key = historyKey(env, cutoff);
    const hit = this.loaded.get(key);
    if (hit && hit.rows === rows && hit.day === day && !shrank) return hit.history;
    const history = await loadIvHistory(db, env, cutoff);
    this.loaded.set(key, { rows, day, history });
    return history;
  }
}
