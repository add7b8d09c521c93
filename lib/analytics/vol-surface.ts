/**
 * Implied-volatility smiles per expiry, at-the-money IV, constant-maturity interpolation and 25-delta skew,
 * built from one option-chain snapshot. Conventions: ACT/365 year fractions; forward F = S·e^((r−q)T).
 */
import { bsmGreeks, normCdf } from "./bsm";
import type { OptionRight } from "./bsm";
import { impliedVol } from "./iv";
import { americanImpliedVol, escrowedCarry, type CashDividend } from "./american";
import { forwardOfFit, impliedForward, mid, usableMid, type ParityFit } from "./parity-forward";
import { type ExpiryQuotes, impliedDividendFits } from "./implied-dividends";
import type { CashDividendRow, ExerciseStyle, OptionQuote } from "./types";
import { expiryClose, newYorkInstant } from "./exchange-calendar";

export {
  AMERICAN_PARITY_ALLOWANCE,
  PARITY_BAND,
  PARITY_MAX_SPREAD,
  PARITY_MAX_YIELD,
  PARITY_MIN_YIELD,
  PARITY_PASSES,
  PARITY_SETTLED,
  PARITY_STRIKES,
  impliedForward,
  type ImpliedForward,
} from "./parity-forward";

export type RateFn = (years: number) => number;

export interface SmilePoint {
  strike: number;
  right: OptionRight; // the contract whose mid price the IV comes from
  mid: number;
  iv: number;
  callDelta: number; // BSM call delta e^(−qT)·N(d1) at this point's own IV
}

export interface ExpirySmile {
  expiry: string; // YYYY-MM-DD
  years: number; // ACT/365 from asOf to the expiry close
  rate: number; // continuous, decimal
  forward: number;
  /** Carry yield q with F = S·e^((r−q)T): implied dividend plus borrow when the forward is implied, else the instrument's. */
  dividendYield?: number;
  /** parity: forward implied by put–call parity; yield: from the instrument's continuous dividend yield (fallback). */
  forwardSource?: "parity" | "yield";
  points: SmilePoint[]; // ascending strike, one per strike
}

const MS_PER_YEAR = 365 * 86_400_000;
/** Largest distance (fraction of the forward) over which an unbracketed forward takes the nearest strike's IV. */
export const ATM_FLAT_BAND = 0.025;
export const definitions = {
  yearFraction:
    "Time to expiry in years, ACT/365: (expiry close − as-of time) in milliseconds / (365 × 86,400,000). The expiry " +
    "close is 16:00 America/New_York (daylight saving included: 20:00 UTC in summer, 21:00 UTC in winter) on the last NYSE " +
    "trading day on or before the expiry date (weekends and NYSE full-day holidays, computed by rule, roll back), or " +
    "13:00 New York when that day is an NYSE early close (the day before Independence Day when a Monday–Thursday, the " +
    "day after Thanksgiving, Christmas Eve when a Monday–Thursday).",
  impliedVolSmile:
    "Per expiry, the implied volatility of each strike from the quote mid price (bid + ask) / 2, skipping quotes with " +
    "bid ≤ 0 or ask < bid. Out-of-the-money contracts are used: puts for strikes below the forward F = S·e^((r−q)T), " +
    "calls at or above it; the in-the-money contract stands in only when the out-of-the-money one has no usable quote. " +
    "Options of American exercise style (equities and ETFs unless the instrument says otherwise) are solved with the " +
    "American model (see americanImpliedVol), European ones (indices) with Black-Scholes-Merton.",
  impliedForward:
    "Forward per expiry (USD) from put–call parity, the way market makers strip it: over strikes within ±10 % of spot " +
    "whose call and put both have a usable quote with (ask − bid)/mid ≤ 0.25, take the 3 with the smallest |C − P| " +
    "(mids) and the median of F = K + e^(rT)·(C − P). For American-style options the mids are first made European: " +
    "each is replaced by the Black-Scholes-Merton price at its American implied vol under the carry of the forward so " +
    "far, and the forward is stripped again, up to 4 times until it moves by at most 1e-5 of spot. The estimates must " +
    "agree within e^(rT) × the widest (call + put) bid-ask width of those strikes × √(number of strikes), plus for " +
    "American options twice the largest change the strip made to one estimate and 1e-4 of spot (the model's part), " +
    "else the quotes do not pin one forward. The implied carry yield q = r − ln(F/S)/T (dividends plus borrow, continuous, decimal) " +
    "is published per expiry and every IV, delta, moneyness, ATM and skew figure of that expiry uses F and q. When no " +
    "strike qualifies, or the implied q is above 1 or below −0.01 (a forward beyond the cash-and-carry bound " +
    "S·e^((r + 0.01)T) is an arbitrage, so the quotes are inconsistent), the forward is S·e^((r−q)T) with the instrument's dividend yield, and the source says yield. For an American-style " +
    "instrument with cash dividends going ex before the expiry (at 00:00 New York of the ex-date) they replace the " +
    "yield: the yield forward is (S − PV(D))·e^(rT), PV(D) = Σ D·e^(−r·t_D), and the American implied vols use the " +
    "escrowed model with the carry q that makes its forward F: S*·e^((r−q)T) = F, S* = S − Σ D·e^(−(r−q)·t_D) " +
    "(see americanModel). An American-style instrument with no declared cash dividends is read with the undeclared " +
    "ones its forwards imply: where the dividends implied by an expiry's forward (S − F·e^(−(r−q)T), beyond those " +
    "already found) rise since the previous expiry by more than its tolerance and than a 10 % yield over the gap, a " +
    "cash dividend going ex on the weekday in that gap whose escrowed model makes the strikes' estimates agree best " +
    "(on that expiry and the next), of the amount that grows S* to the forward, is added when it fits the strikes " +
    "better than the carry alone. The search is bounded: each weekday is screened with one strip pass on a 61-step " +
    "lattice, only the 3 that spread least are fitted (the amount by at most 8 secant steps), and the one chosen is " +
    "refitted on the full lattice and kept only if it still beats the carry alone there (docs/analytics-models.md).",
  atmIv:
    "At-the-money implied volatility of one expiry (decimal): the smile's IV at the forward F = S·e^((r−q)T), linearly " +
    "interpolated in strike between the two listed strikes bracketing F. When F is not bracketed, the IV of the nearest " +
    "strike is used if that strike is within 2.5 % of F; otherwise null.",
  constantMaturityAtmIv:
    "Constant-maturity ATM implied volatility (decimal) for a target tenor of N calendar days (30 or 90), T* = N/365: " +
    "the ATM total variance w = σ²T is linearly interpolated in T between the two expiries bracketing T*, and " +
    "σ* = sqrt(w*/T*). Outside the listed expiries the nearest expiry's ATM IV is used unchanged (flat extrapolation).",
  skew25d:
    "25-delta risk reversal skew (decimal vol): IV of the 25-delta put minus IV of the 25-delta call on the expiry whose " +
    "time to expiry is nearest 30 days. IV is linear in strike between listed strikes, and the 25-delta strike is the one " +
    "whose own BSM call delta e^(−qT)·N(d1) (computed with the interpolated IV at that strike) equals the target, found by " +
    "bisection; the 25-delta put sits at call delta e^(−qT) − 0.25 (put delta −0.25). The error is that of linear " +
    "interpolation in strike: at most h²/8 × max|σ''(K)| per wing for strike spacing h, so at most twice that on the skew " +
    "(tested: a smile 0.25 − 0.35·x + 0.8·x², x = ln(K/F), at spot 100 and 30 days is within 0.002, 0.02 and 0.11 vol points " +
    "of the exact skew on $1, $5 and $10 grids; interpolating linearly in delta was 0.96 vol points off on $10). " +
    "Positive means downside protection is dearer than upside calls.",
  termSlope:
    "Term-structure slope (decimal vol): 90-day constant-maturity ATM IV minus 30-day constant-maturity ATM IV. " +
    "Positive (contango) is the usual state; negative (backwardation) signals near-term stress or an event.",
} as const;

/** ACT/365 years from `from` to the expiry close of `toDate` (YYYY-MM-DD, 16:00 New York); negative once it has passed. */
export function yearFraction(from: Date, toDate: string): number {
  return (expiryClose(toDate).getTime() - from.getTime()) / MS_PER_YEAR;
}

/**
 * The cash dividends going ex after asOf and before an expiry `years` away, each at its time from asOf to 00:00 New
 * York of its ex-date (ACT/365, as yearFraction).
 */
export function cashDividendsBefore(dividends: readonly CashDividendRow[], asOf: Date, years: number): CashDividend[] {
  const out: CashDividend[] = [];
  for (const d of dividends) {
    const t = (newYorkInstant(d.exDate, 0).getTime() - asOf.getTime()) / (365 * 86_400_000);
    if (t > 0 && t < years && d.amount > 0) out.push({ years: t, amount: d.amount });
  }
  return out;
}

/**
 * Smiles of every unexpired expiry in the chain, ascending by expiry; expiries with no solvable quote are dropped. An
 * American chain without declared cash dividends is read with the undeclared ones its forwards imply
 * (impliedCashDividends).
 */
export function impliedVolSmile(
  quotes: OptionQuote[],
  spot: number,
  asOf: Date,
  rate: RateFn,
  q: number,
  style: ExerciseStyle = "european",
  dividends: readonly CashDividendRow[] = [],
): ExpirySmile[] {
  const byExpiry = new Map<string, OptionQuote[]>();
  for (const quote of quotes) {
    const list = byExpiry.get(quote.expiry);
    if (list) list.push(quote);
    else byExpiry.set(quote.expiry, [quote]);
  }
  const expiries = [...byExpiry.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([expiry, list]) => ({ expiry, years: yearFraction(asOf, expiry), quotes: list }))
    .filter((e) => e.years > 0)
    .map((e) => ({ ...e, rate: rate(e.years) }));
  const dated = (rows: readonly CashDividendRow[], years: number) => cashDividendsBefore(rows, asOf, years);
  // The undeclared-dividend check fits each expiry's parity strip under the dividends it finds: the smile reuses them.
  const implied =
    style === "american" && dividends.length === 0
      ? impliedDividendFits(expiries, spot, q, asOf.toISOString().slice(0, 10), dated)
      : null;
  const cashRows = implied?.rows ?? dividends;
  return expiries.flatMap((e, n) => {
    const cash = style === "american" ? dated(cashRows, e.years) : [];
    const smile = expirySmile(e, spot, q, style, cash, implied?.fits[n]);
    return smile === null ? [] : [smile];
  });
}

/**
 * The smile of one expiry (see impliedVolSmile) with the cash dividends going ex before it, `fit` its parity strip
 * under them when already fitted; null when no quote solves.
 */
function expirySmile(
  e: ExpiryQuotes,
  spot: number,
  q: number,
  style: ExerciseStyle,
  cash: readonly CashDividend[],
  fit?: ParityFit | null,
): ExpirySmile | null {
  const { expiry, years, rate: r, quotes: list } = e;
  const solve = style === "american" ? americanImpliedVol : impliedVol;
  const implied =
    fit === undefined
      ? impliedForward(list, spot, years, r, q, style, cash)
      : forwardOfFit(fit, spot, years, r, q, cash);
  const { forward, dividendYield } = implied;
  // The American solve's carry: the one that grows S* = S − PV(D) to the forward (the forward's own q without cash).
  const solveCarry = cash.length > 0 ? escrowedCarry(spot, forward, years, r, cash) : dividendYield;
  const byStrike = new Map<number, { C?: OptionQuote; P?: OptionQuote }>();
  for (const quote of list) {
    if (usableMid(quote) === null) continue;
    const pair = byStrike.get(quote.strike) ?? {};
    pair[quote.right] ??= quote;
    byStrike.set(quote.strike, pair);
  }
  const points: SmilePoint[] = [];
  for (const [strike, pair] of [...byStrike.entries()].sort(([a], [b]) => a - b)) {
    const otm: OptionRight = strike < forward ? "P" : "C";
    const candidates = [pair[otm], pair[otm === "P" ? "C" : "P"]].filter((x): x is OptionQuote => x !== undefined);
    for (const quote of candidates) {
      const m = mid(quote);
      const base = { spot, strike, years, rate: r, right: quote.right };
      const iv =
        cash.length > 0
          ? americanImpliedVol(m, { ...base, dividendYield: solveCarry, cashDividends: cash })
          : solve(m, { ...base, dividendYield });
      if (iv === null) continue;
      const callDelta = bsmGreeks({ spot, strike, years, rate: r, dividendYield, vol: iv, right: "C" }).delta;
      points.push({ strike, right: quote.right, mid: m, iv, callDelta });
      break;
    }
  }
  if (points.length === 0) return null;
  return { expiry, years, rate: r, forward, dividendYield, forwardSource: implied.source, points };
}

/**
 * IV at the forward, linear in strike between the bracketing strikes. When the forward is not bracketed (sparse
 * history snapshots), the nearest strike's IV is used if it lies within `flatBand` of the forward; otherwise null.
 */
export function atmIvForExpiry(smile: ExpirySmile, flatBand = ATM_FLAT_BAND): number | null {
  const pts = smile.points;
  const f = smile.forward;
  for (let i = 0; i < pts.length; i++) {
    if (pts[i].strike === f) return pts[i].iv;
    if (i + 1 < pts.length && pts[i].strike < f && f < pts[i + 1].strike) {
      const w = (f - pts[i].strike) / (pts[i + 1].strike - pts[i].strike);
      return pts[i].iv + w * (pts[i + 1].iv - pts[i].iv);
    }
  }
  if (pts.length === 0) return null;
  const nearest = Math.abs(pts[0].strike - f) < Math.abs(pts[pts.length - 1].strike - f) ? pts[0] : pts[pts.length - 1];
  return Math.abs(nearest.strike / f - 1) <= flatBand ? nearest.iv : null;
}

/** Constant-maturity ATM IV from precomputed smiles: linear in total variance σ²T, flat outside the listed expiries. */
export function constantMaturityAtmIvFromSmiles(smiles: ExpirySmile[], targetDays = 30): number | null {
  const nodes = smiles
    .map((s) => ({ years: s.years, iv: atmIvForExpiry(s) }))
    .filter((n): n is { years: number; iv: number } => n.iv !== null)
    .sort((a, b) => a.years - b.years);
  if (nodes.length === 0) return null;
  const target = targetDays / 365;
  if (target <= nodes[0].years) return nodes[0].iv;
  const last = nodes[nodes.length - 1];
  if (target >= last.years) return last.iv;
  const j = nodes.findIndex((n) => n.years >= target);
  const a = nodes[j - 1];
  const b = nodes[j];
  const wA = a.iv * a.iv * a.years;
  const wB = b.iv * b.iv * b.years;
  const w = wA + ((wB - wA) * (target - a.years)) / (b.years - a.years);
  return Math.sqrt(w / target);
}

/** Constant-maturity ATM IV (decimal) at `targetDays` calendar days from one chain snapshot. */
export function constantMaturityAtmIv(
  chain: OptionQuote[],
  spot: number,
  asOf: Date,
  rateFn: RateFn,
  q: number,
  targetDays = 30,
  style: ExerciseStyle = "european",
): number | null {
  return constantMaturityAtmIvFromSmiles(impliedVolSmile(chain, spot, asOf, rateFn, q, style), targetDays);
}

/**
 * IV at a given call delta: IV is linear in strike between listed strikes, and the strike whose own BSM call delta
 * e^(−qT)·N(d1(K, σ(K))) equals the target is solved by bisection inside the bracketing pair. Null outside the smile.
 */
export function ivAtCallDelta(smile: ExpirySmile, callDelta: number, fallbackQ = 0): number | null {
  const q = smile.dividendYield ?? fallbackQ;
  const pts = [...smile.points].sort((a, b) => a.strike - b.strike);
  const sqrtT = Math.sqrt(smile.years);
  const dfq = Math.exp(-q * smile.years);
  const deltaAt = (k: number, iv: number) => {
    const d1 = (Math.log(smile.forward / k) + 0.5 * iv * iv * smile.years) / (iv * sqrtT);
    return dfq * normCdf(d1);
  };
  for (let i = 0; i < pts.length; i++) {
    if (pts[i].callDelta === callDelta) return pts[i].iv;
    const a = pts[i];
    const b = pts[i + 1];
    if (!b || !((a.callDelta - callDelta) * (b.callDelta - callDelta) < 0)) continue;
    const ivAt = (k: number) => a.iv + ((k - a.strike) / (b.strike - a.strike)) * (b.iv - a.iv);
    let lo = a.strike;
    let hi = b.strike;
    const loAbove = a.callDelta > callDelta;
    for (let n = 0; n < 100 && hi - lo > 1e-10 * hi; n++) {
      const mid = (lo + hi) / 2;
      if (deltaAt(mid, ivAt(mid)) > callDelta === loAbove) lo = mid;
      else hi = mid;
    }
    return ivAt((lo + hi) / 2);
  }
  return null;
}

export interface Skew25Delta {
  expiry: string;
  days: number; // ACT/365 days to the expiry close
  putIv: number;
  callIv: number;
  skew: number; // putIv − callIv
}

/** 25-delta skew on the expiry nearest `targetDays`; a farther one is used only when a nearer one lacks either 25-delta point. */
export function skew25Delta(smiles: ExpirySmile[], q: number, targetDays = 30): Skew25Delta | null {
  const ranked = [...smiles].sort(
    (a, b) => Math.abs(a.years * 365 - targetDays) - Math.abs(b.years * 365 - targetDays),
  );
  for (const smile of ranked) {
    const qT = smile.dividendYield ?? q;
    const callIv = ivAtCallDelta(smile, 0.25, qT);
    const putIv = ivAtCallDelta(smile, Math.exp(-qT * smile.years) - 0.25, qT);
    if (callIv === null || putIv === null) continue;
    return { expiry: smile.expiry, days: smile.years * 365, putIv, callIv, skew: putIv - callIv };
  }
  return null;
}

export function termSlope(iv90: number | null, iv30: number | null): number | null {
  return iv90 === null || iv30 === null ? null : iv90 - iv30;
}
