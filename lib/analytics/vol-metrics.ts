/**
 * IV rank/percentile and the assembly of every options and price metric of one symbol (SymbolMetrics).
 * The building blocks live in vol-surface (smiles, ATM, skew), chain-metrics and price-metrics.
 */
import { definitions as chainDefinitions, calendarDaysUntil, liquidityScore, putCallRatios } from "./chain-metrics";
import { definitions as priceDefinitions, momentum, realizedVol, trendVsSma } from "./price-metrics";
import { definitions as eventDefinitions, expectedMoveIntoEvent } from "./event-move";
import {
  exerciseStyleOf,
  type Bar,
  type FlowSummary,
  type Instrument,
  type OptionQuote,
  type SymbolMetrics,
} from "./types";
import {
  definitions as surfaceDefinitions,
  constantMaturityAtmIvFromSmiles,
  impliedVolSmile,
  skew25Delta,
  termSlope,
} from "./vol-surface";
import type { RateFn } from "./vol-surface";

export { calendarDaysUntil, expectedMoveToDate, liquidityScore, putCallRatios } from "./chain-metrics";
export { momentum, realizedVol, trendVsSma } from "./price-metrics";
export {
  atmIvForExpiry,
  constantMaturityAtmIv,
  constantMaturityAtmIvFromSmiles,
  impliedVolSmile,
  skew25Delta,
  termSlope,
  yearFraction,
} from "./vol-surface";
import { isCalendarDay } from "../util/calendar-day";

/** The lookback is 52 weeks of calendar dates (364 days) before today, plus today; gaps shorten it, never stretch it. */
export const IV_LOOKBACK_CALENDAR_DAYS = 364;
export const IV_MIN_OBSERVATIONS = 20;
/** A range narrower than this fraction of its level is flat: solver noise (~1e-10) on an unchanged chain is not a move. */
export const IV_FLAT_RELATIVE_TOLERANCE = 1e-6;

export const definitions = {
  spot: "Underlying price (USD): the close of the newest bar supplied (the latest daily close).",
  asOf: "ISO 8601 time of the newest data used: the later of the newest option quote's time and the newest bar's start.",
  atmIv30:
    "30-day constant-maturity at-the-money implied volatility (annualised, decimal; 0.25 = 25 %). " +
    surfaceDefinitions.constantMaturityAtmIv,
  ivRank:
    "IV rank (0–100): where today's 30-day constant-maturity ATM IV sits in its range over the lookback, " +
    "(current − min) / (max − min) × 100. The lookback is every daily observation dated within the 52 weeks (364 calendar days) " +
    "before today, plus today: missing days shorten it, never stretch it past a year. " +
    "Null with fewer than 20 observations or a flat range: max − min ≤ 1e-6 × max (solver noise on an unchanged chain is not a move). " +
    "Published rounded to 1 decimal.",
  ivPercentile:
    "IV percentile (0–100): the share of the lookback's earlier daily observations (up to 251 days before today) " +
    "whose 30-day constant-maturity ATM IV is below today's by more than the flat tolerance (1e-6 × today's value), × 100. " +
    "Null under the same conditions as IV rank. Published rounded to 1 decimal.",
  ivLookbackDays:
    "Number of daily observations, today included, behind IV rank and IV percentile: finite values dated within the 52-week window " +
    "(at most 365; 0 without today's value). Integer.",
} as const;

/** Definitions of every SymbolMetrics field, for the API reference. */
export const symbolMetricsDefinitions = {
  ...definitions,
  ...priceDefinitions,
  ...chainDefinitions,
  ...eventDefinitions,
  skew25d: surfaceDefinitions.skew25d,
  forwards:
    "Per listed expiry (ascending) the list { expiry, forward, implied_yield, source }: the forward F of that expiry " +
    "(USD, 4 decimals), the carry yield it implies q = r − ln(F/S)/T (dividends plus borrow, continuous, decimal, 6 " +
    "decimals) and the method, parity or yield. " +
    surfaceDefinitions.impliedForward,
  eventMovePct:
    "expected_move.event_move_pct: the event's own one-standard-deviation move as a fraction of spot, sqrt(ve) from the " +
    "split of the ATM total variance into base and event (see expectedMoveEvent); null when no event premium is priced. " +
    "4 decimals.",
  termSlope: surfaceDefinitions.termSlope,
} as const;

export interface IvRankResult {
  ivRank: number | null;
  ivPercentile: number | null;
  lookbackDays: number;
}

export interface DatedIv {
  date: string; // YYYY-MM-DD
  atmIv30: number;
}

/** First date (YYYY-MM-DD) inside the lookback that ends on `today`: 364 calendar days before it. */
export function ivLookbackStart(today: string): string {
  return new Date(Date.parse(`${today}T00:00:00Z`) - IV_LOOKBACK_CALENDAR_DAYS * 86_400_000).toISOString().slice(0, 10);
}

/** A real calendar date written YYYY-MM-DD. */
const isIsoDate = (d: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(d) && isCalendarDay(Number(d.slice(0, 4)), Number(d.slice(5, 7)), Number(d.slice(8, 10)));

/** The finite values of `points` dated within the 52 weeks before `today` (YYYY-MM-DD), today itself excluded; ascending. */
export function ivLookbackWindow(points: readonly DatedIv[], today: string): number[] {
  const from = ivLookbackStart(today);
  // One value per date: a malformed date or a second value for a date is refused, not counted.
  const seen = new Set<string>();
  for (const p of points) {
    if (!isIsoDate(p.date)) throw new RangeError(`IV history date is not YYYY-MM-DD: ${JSON.stringify(p.date)}`);
    if (seen.has(p.date)) throw new RangeError(`IV history has two values for ${p.date}`);
    seen.add(p.date);
  }
  return points
    .filter((p) => p.date >= from && p.date < today && Number.isFinite(p.atmIv30))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
    .map((p) => p.atmIv30);
}

/** `history` is the lookback window (see ivLookbackWindow), excluding today's `current`; non-finite entries are ignored. */
export function ivRankAndPercentile(history: readonly number[], current: number): IvRankResult {
  if (!Number.isFinite(current)) return { ivRank: null, ivPercentile: null, lookbackDays: 0 };
  const past = history.filter(Number.isFinite);
  const lookbackDays = past.length + 1;
  const min = past.reduce((m, v) => Math.min(m, v), current);
  const max = past.reduce((m, v) => Math.max(m, v), current);
  const tol = IV_FLAT_RELATIVE_TOLERANCE * Math.max(Math.abs(max), Math.abs(min));
  if (lookbackDays < IV_MIN_OBSERVATIONS || max - min <= tol) return { ivRank: null, ivPercentile: null, lookbackDays };
  const below = past.filter((v) => v < current - tol).length;
  const rank = Math.min(100, Math.max(0, ((current - min) / (max - min)) * 100));
  return { ivRank: rank, ivPercentile: (below / past.length) * 100, lookbackDays };
}

export interface SymbolMetricsInput {
  instrument: Instrument;
  dailyBars: Bar[]; // ascending
  chain: OptionQuote[]; // latest snapshot
  ivHistory: DatedIv[]; // daily CM30 ATM IV by date; only the 52 weeks before asOf's UTC date count
  flow: FlowSummary;
  asOf: Date;
  rate: RateFn; // continuous, decimal
}

/** Every metric of one symbol. Throws a RangeError when no bar has a positive close (no spot to work from). */
export function computeSymbolMetrics(input: SymbolMetricsInput): SymbolMetrics {
  const { instrument, chain, asOf, rate } = input;
  const bars = input.dailyBars
    .filter((b) => b.close > 0 && Number.isFinite(b.close))
    .sort((a, b) => a.ts.getTime() - b.ts.getTime());
  if (bars.length === 0) throw new RangeError(`no positive close for ${instrument.symbol}`);
  const closes = bars.map((b) => b.close);
  const spot = closes[closes.length - 1];
  const q = instrument.dividendYield;

  const smiles = impliedVolSmile(chain, spot, asOf, rate, q, exerciseStyleOf(instrument), instrument.cashDividends);
  const atmIv30 = constantMaturityAtmIvFromSmiles(smiles, 30);
  const atmIv90 = constantMaturityAtmIvFromSmiles(smiles, 90);
  const rank =
    atmIv30 === null
      ? { ivRank: null, ivPercentile: null, lookbackDays: 0 }
      : ivRankAndPercentile(ivLookbackWindow(input.ivHistory, asOf.toISOString().slice(0, 10)), atmIv30);

  const earnings = instrument.nextEarningsDate;
  const daysAhead = earnings ? calendarDaysUntil(asOf, earnings) : null;
  const daysToEarnings = daysAhead !== null && daysAhead >= 0 ? daysAhead : null;
  const hv30 = realizedVol(closes, 30);
  const expectedMove =
    earnings && daysToEarnings !== null
      ? expectedMoveIntoEvent({ spot, smiles, asOf, date: earnings, timing: instrument.earningsTiming, hv30 })
      : null;

  const liquidity = liquidityScore(chain, spot);
  const ratios = putCallRatios(chain);
  const newestQuote = chain.reduce((m, x) => Math.max(m, x.asOf.getTime()), -Infinity);
  const newest = Math.max(newestQuote, bars[bars.length - 1].ts.getTime());

  return {
    symbol: instrument.symbol,
    asOf: new Date(newest).toISOString(),
    spot,
    atmIv30,
    ivRank: rank.ivRank,
    ivPercentile: rank.ivPercentile,
    ivLookbackDays: rank.lookbackDays,
    hv30,
    putCallVolumeRatio: ratios.putCallVolumeRatio,
    putCallOiRatio: ratios.putCallOiRatio,
    skew25d: skew25Delta(smiles, q, 30)?.skew ?? null,
    termSlope: termSlope(atmIv90, atmIv30),
    expectedMove,
    daysToEarnings,
    liquidityScore: liquidity.score,
    avgSpreadPct: liquidity.avgSpreadPct,
    totalOptionVolume: liquidity.totalVolume,
    totalOpenInterest: liquidity.totalOpenInterest,
    momentum20d: momentum(closes, 20),
    trend50d: trendVsSma(closes, 50),
    flow: input.flow,
    forwards: smiles.map((s) => ({
      expiry: s.expiry,
      forward: s.forward,
      impliedYield: s.dividendYield ?? q,
      source: s.forwardSource ?? "yield",
    })),
  };
}
