/**
 * US Treasury par-yield curve for one date: points, linear interpolation, the risk-free rate used for option
 * pricing, the 10Y−2Y and 10Y−3M spreads with inversion flags, and a rule-based shape label.
 */
import { TENORS, TENOR_YEARS } from "./types";
import type { Tenor, TreasuryYield } from "./types";
import { round } from "./round";

export type YieldCurveShape = "normal" | "inverted" | "flat" | "humped";

export interface YieldCurvePoint {
  tenor: Tenor;
  years: number;
  yieldPct: number;
  date: string; // the publication date this tenor's yield comes from
}

export interface YieldCurve {
  date: string;
  oldestDate: string;
  curve: YieldCurvePoint[];
  interpolation: "linear";
  inversion: { "10y2y": boolean; "10y3m": boolean };
  spread10y2y: number | null;
  spread10y3m: number | null;
  shape: YieldCurveShape;
}

/** A tenor's newest yield counts only when published within this many calendar days before the curve date. */
export const CURVE_STALENESS_DAYS = 7;
/** A newest date whose window holds fewer tenors than this is a stray row, not a curve, when an older date has more. */
export const MIN_CURVE_TENORS = 3;
/** |longest − shortest| at or below this many basis points is "flat". */
export const FLAT_BAND_BP = 25;
/** An interior peak must exceed the higher end by more than this many basis points to be "humped". */
export const HUMP_MIN_BP = 10;

export const definitions: Record<string, string> = {
  date: `Date (YYYY-MM-DD) of the curve: the newest date in the source rows with at least one published yield whose ${CURVE_STALENESS_DAYS}-day window holds at least ${MIN_CURVE_TENORS} tenors, regardless of row order (a stray row more than ${CURVE_STALENESS_DAYS} days newer than the rest does not reduce the curve to one point); the newest date with a yield when no date qualifies.`,
  oldestDate: `Oldest publication date (YYYY-MM-DD) among the curve's points; equals date when every tenor was published that day. At most ${CURVE_STALENESS_DAYS} calendar days before date.`,
  curve: `Array of { tenor, years, yieldPct, date } ordered from shortest to longest: each tenor's newest published yield dated within ${CURVE_STALENESS_DAYS} calendar days before the curve date (inclusive), so a partial newest day (e.g. only the 1-month yield out yet) does not hide the rest of the curve. Tenors with nothing that recent are omitted, never filled; a yield that is not a number or lies outside (−100, 1000) percent counts as blank. tenor is one of 1M…30Y; years is the tenor length in years (1M = 1/12); yieldPct is the published par yield in percent (4.25 = 4.25 %), as published (2 decimals); date is the day that yield was published.`,
  interpolation:
    'Always "linear": the yield between two published tenors is linear in years; outside the published range it is flat (the nearest end\'s yield). Treasury par yields are semi-annual bond-equivalent yields, so the continuous risk-free rate used for option pricing is r = 2·ln(1 + yieldPct / 200) (about 4 bp below the par yield at 4 %).',
  inversion:
    'Object { "10y2y": boolean, "10y3m": boolean }; each is true when the corresponding spread (10Y minus 2Y, 10Y minus 3M, rounded to 0.1 bp) is negative, false when it is zero or positive, and false when either tenor is missing (the spread is then null).',
  spread10y2y:
    "10-year yield minus 2-year yield in basis points (1 bp = 0.01 percentage point), rounded to 0.1 bp (half away from zero). Null if either tenor is missing from the curve (nothing within the staleness bound).",
  spread10y3m:
    "10-year yield minus 3-month yield in basis points, rounded to 0.1 bp. Null if either tenor is missing from the curve.",
  shape: `One of normal, inverted, flat, humped. Ends: shortest and longest published tenors; slope = longest − shortest in bp; hump = highest interior yield − the higher end, in bp (interior = every tenor strictly between the ends). Rules in order: "humped" if at least 3 points, hump > ${HUMP_MIN_BP} bp and hump ≥ |slope| (the hump dominates the tilt); else "flat" if |slope| ≤ ${FLAT_BAND_BP} bp (fewer than 2 points is also flat); else "normal" if slope > 0, "inverted" if slope < 0. Both slope and hump are rounded to 0.1 bp before comparison.`,
};

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const isTenor = (t: unknown): t is Tenor => (TENORS as readonly unknown[]).includes(t);

/** A row is usable when its date is YYYY-MM-DD, its tenor is known and its yield is a finite number (blank tenors are not). */
function usable(r: TreasuryYield | null | undefined): r is TreasuryYield {
  return (
    r != null &&
    typeof r.date === "string" &&
    DATE_RE.test(r.date) &&
    isTenor(r.tenor) &&
    typeof r.yieldPct === "number" &&
    Number.isFinite(r.yieldPct) &&
    r.yieldPct > -100 && // below −100 % is no yield (and 2·ln(1 + y/200) would not exist)
    r.yieldPct < 1000
  );
}

function spreadBp(byTenor: Map<Tenor, { yieldPct: number }>, long: Tenor, short: Tenor): number | null {
  const l = byTenor.get(long)?.yieldPct;
  const s = byTenor.get(short)?.yieldPct;
  return l === undefined || s === undefined ? null : round((l - s) * 100, 1);
}

/**
 * Builds the curve as of the newest date present from each tenor's newest yield within CURVE_STALENESS_DAYS. Rows may
 * arrive in any order; on duplicate (date, tenor) rows the last one in input order wins. Returns null when no row is
 * usable (no rows, or every yield blank).
 */
export function buildYieldCurve(rows: readonly TreasuryYield[]): YieldCurve | null {
  const dates = [...new Set(rows.filter(usable).map((r) => r.date))].sort().reverse();
  if (dates.length === 0) return null;
  const windowStart = (d: string) =>
    new Date(Date.parse(`${d}T00:00:00Z`) - CURVE_STALENESS_DAYS * 86_400_000).toISOString().slice(0, 10);
  const tenorsIn = (d: string) => {
    const start = windowStart(d);
    return new Set(rows.filter((r) => usable(r) && r.date >= start && r.date <= d).map((r) => r.tenor)).size;
  };
  const date = dates.find((d) => tenorsIn(d) >= MIN_CURVE_TENORS) ?? dates[0];
  const from = windowStart(date);

  const byTenor = new Map<Tenor, { date: string; yieldPct: number }>();
  for (const r of rows) {
    if (!usable(r) || r.date < from || r.date > date) continue;
    const seen = byTenor.get(r.tenor);
    if (!seen || r.date >= seen.date) byTenor.set(r.tenor, { date: r.date, yieldPct: r.yieldPct });
  }
  const curve: YieldCurvePoint[] = TENORS.flatMap((tenor) => {
    const point = byTenor.get(tenor);
    return point ? [{ tenor, years: TENOR_YEARS[tenor], yieldPct: point.yieldPct, date: point.date }] : [];
  });
  const oldestDate = curve.reduce((m, p) => (p.date < m ? p.date : m), date);

  const spread10y2y = spreadBp(byTenor, "10Y", "2Y");
  const spread10y3m = spreadBp(byTenor, "10Y", "3M");
  return {
    date,
    oldestDate,
    curve,
    interpolation: "linear",
    inversion: { "10y2y": spread10y2y !== null && spread10y2y < 0, "10y3m": spread10y3m !== null && spread10y3m < 0 },
    spread10y2y,
    spread10y3m,
    shape: classifyShape(curve),
  };
}

type Point = { years: number; yieldPct: number };
const byYears = (pts: readonly Point[]): Point[] => [...pts].sort((a, b) => a.years - b.years);

/** Shape label of a curve by the rule in `definitions.shape`. */
export function classifyShape(points: readonly Point[]): YieldCurveShape {
  if (points.length < 2) return "flat";
  const pts = byYears(points);
  const front = pts[0].yieldPct;
  const back = pts[pts.length - 1].yieldPct;
  const slope = round((back - front) * 100, 1);
  if (pts.length >= 3) {
    const peak = Math.max(...pts.slice(1, -1).map((p) => p.yieldPct));
    const hump = round((peak - Math.max(front, back)) * 100, 1);
    if (hump > HUMP_MIN_BP && hump >= Math.abs(slope)) return "humped";
  }
  if (Math.abs(slope) <= FLAT_BAND_BP) return "flat";
  return slope > 0 ? "normal" : "inverted";
}

function interpolate(pts: readonly Point[], years: number): number {
  if (pts.length === 0) throw new RangeError("yieldAt: the curve has no points");
  if (!Number.isFinite(years)) throw new RangeError(`yieldAt: years must be finite, got ${years}`);
  if (years <= pts[0].years) return pts[0].yieldPct;
  const last = pts[pts.length - 1];
  if (years >= last.years) return last.yieldPct;
  for (let i = 1; i < pts.length; i++) {
    const b = pts[i];
    if (years <= b.years) {
      const a = pts[i - 1];
      return a.yieldPct + ((years - a.years) / (b.years - a.years)) * (b.yieldPct - a.yieldPct);
    }
  }
  return last.yieldPct; // unreachable
}

/** Yield in percent at `years`, linear in years between published tenors, flat beyond the ends. Throws on an empty curve. */
export function yieldAt(curve: readonly Point[], years: number): number {
  return interpolate(byYears(curve), years);
}

/**
 * Continuous risk-free rate (decimal) at `years`: r = 2·ln(1 + y / 200) with y = yieldAt(curve, years) in percent,
 * since Treasury par yields are semi-annual bond-equivalent yields. Throws on an empty curve.
 */
export function riskFreeRate(curve: readonly Point[]): (years: number) => number {
  const pts = byYears(curve);
  return (years: number) => 2 * Math.log1p(interpolate(pts, years) / 200);
}
