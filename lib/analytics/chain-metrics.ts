/** Metrics of one option-chain snapshot that need no volatility model: put/call ratios, liquidity, expected move. */
import type { OptionQuote } from "./types";
import { calendarDaysFromNewYork } from "./exchange-calendar";

/** Contracts with strikes within this fraction of spot count as near the money for the spread measure. */
export const NEAR_MONEY_BAND = 0.1;

export const definitions = {
  expectedMove:
    "Expected move to a date (USD), when the chain prices no event premium (see expectedMoveEvent): spot × σ × sqrt(days / 365), a one-standard-deviation move under the lognormal " +
    "model, with σ the ATM implied vol (decimal) of the first expiry on or after the date (for an earnings date, the first " +
    "expiry carrying the event, see expectedMoveEvent) and days the calendar days " +
    "from the as-of date in New York (America/New_York) to the date (an event today counts as 1 day). movePct is move / spot as a fraction " +
    "(0.05 = 5 %). Null for dates in the past.",
  daysToEarnings:
    "Calendar days from the as-of date in New York (America/New_York) to the next earnings date; null when none is scheduled or it has passed.",
  putCallVolumeRatio:
    "Put/call volume ratio: total put contract volume / total call contract volume (missing volumes add 0); null when no calls traded.",
  putCallOiRatio:
    "Put/call open-interest ratio: total put open interest / total call open interest; null when call OI is 0.",
  avgSpreadPct:
    "Average relative bid-ask spread (fraction; 0.05 = 5 %): mean of (ask − bid) / ((ask + bid) / 2) over contracts " +
    "with strikes within ±10 % of spot and a usable quote (bid > 0, ask ≥ bid). Null when there are none.",
  liquidityScore:
    "Liquidity score (0–100) = spread points + volume points + open-interest points. Spread points (0–50): " +
    "50 × max(0, 1 − avgSpreadPct / 0.20), so a 0 % spread scores 50 and 20 % or wider scores 0 (0 when no near-the-money " +
    "quote). Volume points (0–25): 25 × min(1, log10(1 + total volume) / 5), full at 100,000 contracts. Open-interest " +
    "points (0–25): 25 × min(1, log10(1 + total open interest) / 6), full at 1,000,000 contracts.",
  totalOptionVolume:
    "Sum of the day's contract volume over every contract in the chain; a contract whose volume is missing or not a finite number adds 0 (never NaN).",
  totalOpenInterest:
    "Sum of open interest over every contract in the chain; a missing or non-finite open interest adds 0.",
} as const;

/** Whole calendar days from the New York date of `asOf` to `date` (YYYY-MM-DD); negative for past dates. */
export function calendarDaysUntil(asOf: Date, date: string): number {
  return calendarDaysFromNewYork(asOf, date);
}

export interface ExpectedMove {
  date: string;
  days: number; // calendar days
  move: number; // USD
  movePct: number; // move / spot, fraction
}

export function expectedMoveToDate(spot: number, iv: number, asOf: Date, date: string): ExpectedMove | null {
  const days = calendarDaysUntil(asOf, date);
  if (!(days >= 0) || !(spot > 0) || !(iv >= 0)) return null;
  // A same-day event (e.g. earnings after today's close) still carries a one-day move.
  const move = spot * iv * Math.sqrt(Math.max(days, 1) / 365);
  return { date, days, move, movePct: move / spot };
}

export interface PutCallRatios {
  putCallVolumeRatio: number | null;
  putCallOiRatio: number | null;
}

export function putCallRatios(chain: OptionQuote[]): PutCallRatios {
  let putVol = 0,
    callVol = 0,
    putOi = 0,
    callOi = 0;
  for (const q of chain) {
    const vol = count(q.volume);
    const oi = count(q.openInterest);
    if (q.right === "P") {
      putVol += vol;
      putOi += oi;
    } else {
      callVol += vol;
      callOi += oi;
    }
  }
  const ratio = (a: number, b: number) => (b > 0 && Number.isFinite(a / b) ? a / b : null);
  return { putCallVolumeRatio: ratio(putVol, callVol), putCallOiRatio: ratio(putOi, callOi) };
}

export interface LiquidityScore {
  score: number; // 0–100
  avgSpreadPct: number | null; // fraction
  spreadPoints: number; // 0–50
  volumePoints: number; // 0–25
  openInterestPoints: number; // 0–25
  totalVolume: number;
  totalOpenInterest: number;
}

/** A contract count that is missing, negative, not finite or beyond a safe integer contributes nothing (it is not data). */
const count = (x: number) => (Number.isFinite(x) && x > 0 && x <= Number.MAX_SAFE_INTEGER ? x : 0);

export function liquidityScore(chain: OptionQuote[], spot: number): LiquidityScore {
  let totalVolume = 0,
    totalOpenInterest = 0,
    spreadSum = 0,
    spreadCount = 0;
  for (const q of chain) {
    totalVolume += count(q.volume);
    totalOpenInterest += count(q.openInterest);
    const nearMoney = Math.abs(q.strike / spot - 1) <= NEAR_MONEY_BAND;
    if (nearMoney && q.bid > 0 && q.ask >= q.bid && Number.isFinite(q.ask)) {
      spreadSum += (q.ask - q.bid) / ((q.bid + q.ask) / 2);
      spreadCount++;
    }
  }
  const avgSpreadPct = spreadCount > 0 ? spreadSum / spreadCount : null;
  const spreadPoints = avgSpreadPct === null ? 0 : 50 * Math.max(0, 1 - avgSpreadPct / 0.2);
  const volumePoints = 25 * Math.min(1, Math.log10(1 + Math.max(0, totalVolume)) / 5);
  const openInterestPoints = 25 * Math.min(1, Math.log10(1 + Math.max(0, totalOpenInterest)) / 6);
  return {
    score: spreadPoints + volumePoints + openInterestPoints,
    avgSpreadPct,
    spreadPoints,
    volumePoints,
    openInterestPoints,
    totalVolume,
    totalOpenInterest,
  };
}
