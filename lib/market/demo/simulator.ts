/**
 * The demo market as data: everything is a pure function of (seed, time), so every process computes the same
 * market and a ticker can advance it in real time by generating only the increment between two times.
 */
import type { Bar, Instrument, OptionQuote, OptionTrade, TreasuryYield } from "../../analytics/types";
import { DAY_MS, chainAsOf, currentSession, isoDate, sessionClose, sessionOpen, sessionsEndingAt } from "./calendar";
import { reducedChain, symbolChain } from "./chain";
import { dailyBarAt, fiveMinuteBars } from "./intraday";
import { generateTradesBetween } from "./trades";
import {
  DEMO_EARNINGS_TIMING,
  demoCashDividends,
  demoExerciseStyle,
  demoYield,
  nextEarnings,
  selectUniverse,
} from "./universe";
import { yieldCurve } from "./yields";

export { generateTradesBetween } from "./trades";

export const DAILY_SESSIONS = 261; // about one calendar year of weekdays
export const HISTORY_SESSIONS = 252;

export interface DemoMarketOptions {
  seed: number | string;
  now: Date | number;
  symbols?: readonly string[]; // equities to include; SPX and VIX are always included
}

export interface DemoMarket {
  asOf: Date; // the chain snapshot time: latest whole minute ≤ now (in a session or the night session after it)
  instruments: Instrument[];
  dailyBars: Bar[]; // DAILY_SESSIONS per symbol, ascending; the current session's bar is partial while it runs
  intradayBars: Bar[]; // 5-minute bars of the current session up to now
  chainHistory: OptionQuote[]; // reduced EOD snapshots (as of each session close) of the HISTORY_SESSIONS sessions before the current one, and of the current one once its night session has begun
  chain: OptionQuote[]; // full chain as of `asOf`; at the close this is also the current session's EOD snapshot
  trades: OptionTrade[]; // the current session's prints and its night session's up to now
  yields: TreasuryYield[]; // one curve per daily-bar session
}

/** How far back and ahead of the session the demo instruments list their cash dividends. */
const DIVIDEND_WINDOW_MS = 400 * DAY_MS;
function cashOf(s: Parameters<typeof demoYield>[0], day: number): Pick<Instrument, "cashDividends"> {
  const rows = demoCashDividends(s, day - DIVIDEND_WINDOW_MS, day + DIVIDEND_WINDOW_MS);
  return rows.length ? { cashDividends: rows } : {};
}

export function demoInstruments(seed: number | string, t: Date | number, symbols?: readonly string[]): Instrument[] {
  void seed; // instruments do not depend on the seed today; kept so every generator has the same shape
  const day = currentSession(+t);
  return selectUniverse(symbols).map((s) => {
    const earnings = nextEarnings(s, day + DAY_MS);
    return {
      symbol: s.symbol,
      name: s.name,
      sector: s.sector,
      kind: s.kind,
      nextEarningsDate: earnings === null ? null : isoDate(earnings),
      ...(earnings === null ? {} : { earningsTiming: DEMO_EARNINGS_TIMING }),
      dividendYield: demoYield(s),
      exerciseStyle: demoExerciseStyle(s),
      ...cashOf(s, day),
    };
  });
}

/** The full chain of every symbol as of the latest whole minute ≤ t. */
export function generateChainAt(seed: number | string, t: Date | number, symbols?: readonly string[]): OptionQuote[] {
  const asOf = chainAsOf(+t);
  return selectUniverse(symbols).flatMap((s) => symbolChain(seed, s, asOf));
}

/** The reduced end-of-day chain of one session, as of its close (21:00 UTC, or 13:00 New York on an early close). */
export function generateEodChain(seed: number | string, dayMs: number, symbols?: readonly string[]): OptionQuote[] {
  return selectUniverse(symbols).flatMap((s) => reducedChain(seed, s, sessionClose(dayMs)));
}

/** The current session's daily bar (partial while it runs) and its 5-minute bars as of t. */
export function generateBarsAt(
  seed: number | string,
  t: Date | number,
  symbols?: readonly string[],
): { daily: Bar[]; intraday: Bar[] } {
  const day = currentSession(+t);
  const universe = selectUniverse(symbols);
  return {
    daily: universe.map((s) => dailyBarAt(seed, s.symbol, day, +t)),
    intraday: universe.flatMap((s) => fiveMinuteBars(seed, s.symbol, day, +t)),
  };
}

/** Complete daily bars of past sessions. */
export function generateDailyBars(seed: number | string, days: readonly number[], symbols?: readonly string[]): Bar[] {
  const universe = selectUniverse(symbols);
  return universe.flatMap((s) => days.map((d) => dailyBarAt(seed, s.symbol, d, sessionClose(d))));
}

export function generateYields(seed: number | string, days: readonly number[]): TreasuryYield[] {
  return days.flatMap((d) => yieldCurve(seed, d));
}

export function generateDemoMarket({ seed, now, symbols }: DemoMarketOptions): DemoMarket {
  const t = +now;
  const day = currentSession(t);
  const sessions = sessionsEndingAt(day, DAILY_SESSIONS);
  const past = sessions.slice(0, -1);
  const current = generateBarsAt(seed, t, symbols);
  const dailyBars = [...generateDailyBars(seed, past, symbols), ...current.daily];
  dailyBars.sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : +a.ts - +b.ts));
  return {
    asOf: new Date(chainAsOf(t)),
    instruments: demoInstruments(seed, t, symbols),
    dailyBars,
    intradayBars: current.intraday,
    // Past the close the night session's snapshot is current: the close keeps its reduced EOD one, as a tick leaves it.
    chainHistory: [...past.slice(-HISTORY_SESSIONS), ...(chainAsOf(t) > sessionClose(day) ? [day] : [])].flatMap((d) =>
      generateEodChain(seed, d, symbols),
    ),
    chain: generateChainAt(seed, t, symbols),
    trades: generateTradesBetween(seed, sessionOpen(day) - 1, t, symbols),
    yields: generateYields(seed, sessions),
  };
}
