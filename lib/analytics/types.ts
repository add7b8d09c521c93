/** Plain data shapes shared by the market store, the demo simulator and the pure analytics functions. */
import type { OptionRight } from "./bsm";

export type MarketEnv = "demo" | "live";

/** A ticker symbol as stored and answered: 1–6 letters, optionally a . or - class suffix of 1–2 letters (docs/api-contract.md §1). */
export const SYMBOL_PATTERN = /^[A-Z]{1,6}([.-][A-Z]{1,2})?$/;

export interface Instrument {
  symbol: string;
  name: string;
  sector: string;
  kind: "equity" | "etf" | "index" | "volatility_index";
  nextEarningsDate: string | null; // YYYY-MM-DD
  /**
   * When the next earnings are reported on nextEarningsDate: before that day's open or after its close. Unset or null:
   * unknown (see lib/analytics/event-move.ts: an expiry on the event date is then left out of the event split).
   */
  earningsTiming?: EarningsTiming | null;
  dividendYield: number; // continuous, decimal (0.012 = 1.2 %)
  /** Unset: by kind (see exerciseStyleOf). */
  exerciseStyle?: ExerciseStyle;
  /**
   * Discrete cash dividends known for the instrument (imported or the demo's schedule), ascending by ex-date. When
   * any go ex before an expiry, that expiry's options are priced on them instead of on dividendYield.
   */
  cashDividends?: CashDividendRow[];
}

/** before_open: reported before the session opens (the day's session trades on it); after_close: after it closes. */
export type EarningsTiming = "before_open" | "after_close";
export const EARNINGS_TIMINGS: readonly EarningsTiming[] = ["before_open", "after_close"];

/** A cash dividend per share (USD) going ex on exDate (YYYY-MM-DD): the stock trades without it from that day's open. */
export interface CashDividendRow {
  symbol: string;
  exDate: string;
  amount: number;
}

/** American: exercisable any day to expiry (US equity and ETF options); European: at expiry only (index options). */
export type ExerciseStyle = "american" | "european";

/** The instrument's exercise style: as set, else american for equities and ETFs, european for indices. */
export function exerciseStyleOf(i: Pick<Instrument, "kind" | "exerciseStyle">): ExerciseStyle {
  return i.exerciseStyle ?? (i.kind === "equity" || i.kind === "etf" ? "american" : "european");
}

export interface Bar {
  symbol: string;
  interval: "1d" | "5m";
  ts: Date; // bar start; daily bars at 00:00 UTC of the session date
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface OptionQuote {
  symbol: string;
  asOf: Date;
  expiry: string; // YYYY-MM-DD
  strike: number;
  right: OptionRight;
  bid: number;
  ask: number;
  last: number | null;
  volume: number;
  openInterest: number;
}

export interface OptionTrade {
  tradeId: string;
  symbol: string;
  ts: Date;
  expiry: string;
  strike: number;
  right: OptionRight;
  price: number; // per share
  size: number; // contracts
  exchange: string;
  condition: string;
  bid: number; // quote in force at the print
  ask: number;
}

export interface TreasuryYield {
  date: string; // YYYY-MM-DD
  tenor: Tenor;
  yieldPct: number; // percent, e.g. 4.25
}

export const TENORS = ["1M", "2M", "3M", "4M", "6M", "1Y", "2Y", "3Y", "5Y", "7Y", "10Y", "20Y", "30Y"] as const;
export type Tenor = (typeof TENORS)[number];
/** Tenor length in years, used for interpolation and for the risk-free rate at an option's expiry. */
export const TENOR_YEARS: Record<Tenor, number> = {
  "1M": 1 / 12,
  "2M": 2 / 12,
  "3M": 3 / 12,
  "4M": 4 / 12,
  "6M": 0.5,
  "1Y": 1,
  "2Y": 2,
  "3Y": 3,
  "5Y": 5,
  "7Y": 7,
  "10Y": 10,
  "20Y": 20,
  "30Y": 30,
};

/**
 * Where the base (diffusive) variance rate of the event split came from: expiry_before, the nearest expiry closing
 * before the event; expiries_after, the slope between the first two expiries after it; hv30, the 30-session realised
 * vol (one expiry after the event and none before it).
 */
export type EventBaseSource = "expiry_before" | "expiries_after" | "hv30";

/** Options and price metrics of one symbol at one as-of time; the input of scores, no-trade and ranking. */
export interface SymbolMetrics {
  symbol: string;
  asOf: string; // ISO time of the newest data used
  spot: number;
  atmIv30: number | null; // 30-day constant-maturity ATM implied vol, decimal
  ivRank: number | null; // 0–100, position of today's atmIv30 in its lookback range
  ivPercentile: number | null; // 0–100, share of lookback days with a lower atmIv30
  ivLookbackDays: number; // number of daily observations behind rank and percentile
  hv30: number | null; // 30-day close-to-close realised vol, annualised, decimal
  putCallVolumeRatio: number | null;
  putCallOiRatio: number | null;
  skew25d: number | null; // IV(25-delta put) − IV(25-delta call), decimal vol
  termSlope: number | null; // IV(90-day CM) − IV(30-day CM), decimal vol
  /**
   * To next earnings; eventMovePct (the event's own 1-sd move, fraction) when the chain prices an event premium,
   * baseSource where its base variance came from; timing as stored (null: unknown).
   */
  expectedMove: {
    date: string;
    days: number;
    move: number;
    movePct: number;
    eventMovePct?: number;
    baseSource?: EventBaseSource;
    timing?: EarningsTiming | null;
  } | null;
  daysToEarnings: number | null;
  liquidityScore: number; // 0–100
  avgSpreadPct: number | null; // mean (ask − bid) / mid of near-the-money contracts, fraction
  totalOptionVolume: number;
  totalOpenInterest: number;
  momentum20d: number | null; // 20-session return, decimal
  trend50d: number | null; // close / 50-session SMA − 1, decimal
  flow: FlowSummary;
  /** Per expiry: the forward used, its carry yield q (dividend + borrow, continuous) and whether parity or the yield gave it. */
  forwards?: ExpiryForward[];
}

export interface ExpiryForward {
  expiry: string;
  forward: number;
  impliedYield: number;
  source: "parity" | "yield";
}

export interface FlowSummary {
  bullishPremium: number; // USD
  bearishPremium: number; // USD
  netPremium: number; // bullish − bearish, USD
  sweepCount: number;
  blockCount: number;
  unusualCount: number;
}
