/**
 * The daily 30-day constant-maturity ATM IV series behind IV rank and percentile, rebuilt from stored daily
 * chain snapshots. History snapshots hold only a few near-the-money contracts on the 2–3 expiries around 30 days,
 * which the smile builder tolerates: an in-the-money contract stands in for a missing out-of-the-money one, an
 * unbracketed forward takes the nearest strike within 2.5 %, and the term interpolation is flat past the listed expiries.
 */
import type { Bar, ExerciseStyle, OptionQuote } from "./types";
import { constantMaturityAtmIvFromSmiles, impliedVolSmile } from "./vol-surface";
import type { RateFn } from "./vol-surface";

export interface IvHistoryPoint {
  date: string; // YYYY-MM-DD, UTC date of the snapshot
  atmIv30: number; // decimal
}

export const definitions = {
  atmIvHistory:
    "Daily history of the 30-day constant-maturity ATM implied volatility (decimal), one value per UTC date: each " +
    "day's stored chain snapshot is valued with that date's daily close as spot, at the snapshot's own time, by the " +
    "same method as atmIv30. Days without a close or without a solvable at-the-money quote are left out.",
} as const;

const isoDate = (d: Date) => d.toISOString().slice(0, 10);

/** Daily closes keyed by session date (YYYY-MM-DD); daily bars start at 00:00 UTC of their session date. */
export function closesByDate(bars: Bar[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const bar of bars) if (bar.interval === "1d") out[isoDate(bar.ts)] = bar.close;
  return out;
}

/**
 * One CM ATM IV per snapshot date, ascending. `snapshots` holds one quote list per day (the newest snapshot wins
 * when two fall on the same UTC date); each is valued as of its newest quote's `asOf`.
 */
export function atmIvHistory(
  snapshots: OptionQuote[][],
  closes: Record<string, number>,
  rateFn: RateFn,
  q: number,
  targetDays = 30,
  style: ExerciseStyle = "european",
): IvHistoryPoint[] {
  const newestPerDate = new Map<string, { asOf: Date; quotes: OptionQuote[] }>();
  for (const quotes of snapshots) {
    if (quotes.length === 0) continue;
    const asOf = quotes.reduce((m, x) => (x.asOf.getTime() > m.getTime() ? x.asOf : m), quotes[0].asOf);
    const date = isoDate(asOf);
    const seen = newestPerDate.get(date);
    if (!seen || asOf.getTime() > seen.asOf.getTime()) newestPerDate.set(date, { asOf, quotes });
  }
  const out: IvHistoryPoint[] = [];
  for (const date of [...newestPerDate.keys()].sort()) {
    const spot = closes[date];
    if (!(spot > 0)) continue;
    const snapshot = newestPerDate.get(date);
    if (!snapshot) continue;
    const { asOf, quotes } = snapshot;
    const iv = constantMaturityAtmIvFromSmiles(impliedVolSmile(quotes, spot, asOf, rateFn, q, style), targetDays);
    if (iv !== null) out.push({ date, atmIv30: iv });
  }
  return out;
}
