/**
 * Expiry payoff of a multi-leg option position: profit/loss curve, max profit and loss, breakevens and the
 * risk-neutral probability of profit. The P&L is piecewise linear in the terminal price S_T with kinks only at
 * strikes, so it is fully described by its values at 0 and at each strike plus its slope beyond the top strike.
 */
import { normCdf } from "./bsm";

export interface PayoffLeg {
  kind: "C" | "P" | "stock";
  strike: number | null; // null for stock
  /** Signed exposure in shares: +long / −short; an option contract is 100 shares. */
  units: number;
  /** Entry price per share, USD (option mid or stock spot). */
  price: number;
}

export interface PayoffSummary {
  maxProfit: number | null; // USD, null = unlimited
  maxLoss: number | null; // USD (positive = loss), null = unlimited
  breakevens: number[]; // ascending, USD per share
}

export interface LognormalParams {
  spot: number;
  years: number;
  rate: number;
  dividendYield: number;
  vol: number;
}

export const definitions = {
  payoff:
    "Profit/loss at expiry, USD: sum over legs of units x (value at expiry - entry price); option value at expiry = max(S_T - K, 0) (call) or max(K - S_T, 0) (put), stock value = S_T. Premium is not discounted or financed.",
  maxProfit:
    "Largest expiry P&L over S_T >= 0, USD; null (unlimited) when the P&L keeps rising above the highest strike.",
  maxLoss:
    "Largest expiry loss over S_T >= 0, as a positive USD amount; null (unlimited) when the P&L keeps falling above the highest strike.",
  breakevens:
    "Terminal underlying prices where the expiry P&L crosses zero, ascending, USD per share (linear interpolation between kinks).",
  probabilityOfProfit:
    "Risk-neutral probability that the expiry P&L is > 0: ln S_T ~ Normal(ln S + (r - q - sigma^2/2) T, sigma^2 T); " +
    "P(a < S_T < b) = N(d2(a)) - N(d2(b)), d2(x) = (ln(S/x) + (r - q - sigma^2/2) T) / (sigma sqrt T), summed over the intervals where the P&L is positive. Range 0-1.",
} as const;

const ZERO = 1e-7; // USD: P&L values closer to zero than this are treated as zero

export function payoffAt(legs: PayoffLeg[], s: number): number {
  let pnl = 0;
  for (const l of legs) {
    const k = l.strike ?? 0; // option legs always carry a strike; stock's is unused
    const value = l.kind === "stock" ? s : l.kind === "C" ? Math.max(s - k, 0) : Math.max(k - s, 0);
    pnl += l.units * (value - l.price);
  }
  return Math.abs(pnl) < ZERO ? 0 : pnl;
}

/** Slope of the P&L above the highest strike, shares: long calls and stock minus short calls. */
export function tailSlope(legs: PayoffLeg[]): number {
  return legs.reduce((s, l) => s + (l.kind === "P" ? 0 : l.units), 0);
}

/** 0 and the distinct strikes, ascending. */
export function kinks(legs: PayoffLeg[]): number[] {
  const ks = legs.flatMap((l) => (l.strike === null ? [] : [l.strike]));
  return [...new Set([0, ...ks])].sort((a, b) => a - b);
}

export function breakevens(legs: PayoffLeg[]): number[] {
  const xs = kinks(legs);
  const vs = xs.map((x) => payoffAt(legs, x));
  const out: number[] = [];
  const push = (x: number) => {
    if (out.length === 0 || Math.abs(out[out.length - 1] - x) > 1e-9) out.push(x);
  };
  for (let i = 0; i < xs.length; i++) {
    if (vs[i] === 0) push(xs[i]);
    if (i + 1 < xs.length && vs[i] * vs[i + 1] < 0) push(xs[i] + ((xs[i + 1] - xs[i]) * vs[i]) / (vs[i] - vs[i + 1]));
  }
  const last = xs[xs.length - 1];
  const vLast = vs[vs.length - 1];
  const slope = tailSlope(legs);
  if (vLast !== 0 && slope !== 0 && Math.sign(vLast) !== Math.sign(slope)) push(last - vLast / slope);
  return out;
}

export function analyzePayoff(legs: PayoffLeg[]): PayoffSummary {
  const values = kinks(legs).map((x) => payoffAt(legs, x));
  const slope = tailSlope(legs);
  const hi = Math.max(...values);
  const lo = Math.min(...values);
  return {
    maxProfit: slope > 0 ? null : hi,
    maxLoss: slope < 0 ? null : -lo,
    breakevens: breakevens(legs),
  };
}

/** Risk-neutral P(S_T > x) under the lognormal model; 1 at x <= 0. */
export function probAbove(x: number, p: LognormalParams): number {
  if (x <= 0) return 1;
  if (!Number.isFinite(x)) return 0;
  const sd = p.vol * Math.sqrt(p.years);
  const drift = (p.rate - p.dividendYield - 0.5 * p.vol * p.vol) * p.years;
  if (!(sd > 0)) return p.spot * Math.exp((p.rate - p.dividendYield) * p.years) > x ? 1 : 0;
  return normCdf((Math.log(p.spot / x) + drift) / sd);
}

/** P(expiry P&L > 0), summing the probability of every interval between kinks and breakevens where the P&L is positive. */
export function probabilityOfProfit(legs: PayoffLeg[], p: LognormalParams): number {
  const pts = [...new Set([...kinks(legs), ...breakevens(legs)])].sort((a, b) => a - b);
  let prob = 0;
  for (let i = 0; i < pts.length; i++) {
    const a = pts[i];
    const b = i + 1 < pts.length ? pts[i + 1] : Infinity;
    const probe = Number.isFinite(b) ? (a + b) / 2 : a + Math.max(1, a);
    if (payoffAt(legs, probe) > 0) prob += probAbove(a, p) - probAbove(b, p);
  }
  return Math.min(1, Math.max(0, prob));
}
