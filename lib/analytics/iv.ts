/**
 * Black-Scholes-Merton implied volatility: the vol that reproduces an option's price.
 * Safeguarded Newton-Raphson on vega inside a bisection bracket [IV_MIN, IV_MAX].
 * References: Hull, "Options, Futures, and Other Derivatives", §15.11 (implied volatility);
 * Manaster & Koehler (1982), "The Calculation of Implied Variances from the Black-Scholes Model";
 * Brenner & Subrahmanyam (1988), "A Simple Formula to Compute the Implied Standard Deviation".
 */
import { bsmGreeks, bsmPrice } from "./bsm";
import type { BsmInput, OptionRight } from "./bsm";

export const IV_MIN = 1e-4;
export const IV_MAX = 5.0;
/** Convergence tolerance on the model-minus-market price, in price units (tightened for prices below 1). */
export const IV_PRICE_TOL = 1e-8;
const MAX_ITERATIONS = 200;
const VOL_STEP_TOL = 1e-14;

export type ImpliedVolInput = Omit<BsmInput, "vol">;

export const definitions = {
  impliedVol:
    "Implied volatility (annualised, decimal; 0.25 = 25 %): the volatility sigma for which the Black-Scholes-Merton " +
    "price with continuous dividend yield q equals the option's price. Solved by Newton-Raphson on vega, with " +
    "bisection in [0.0001, 5.0] whenever a Newton step leaves the bracket or vega is negligible, until the price " +
    "error is below 1e-8 (relative for prices under 1). In-the-money options are solved through their out-of-the-money " +
    "put-call-parity twin (C − P = S·e^(−qT) − K·e^(−rT)), which has the same implied vol. Not defined (null) when the " +
    "price is not finite, is at or below the no-arbitrage lower bound max(±(S·e^(−qT) − K·e^(−rT)), 0), is at or above " +
    "the upper bound (S·e^(−qT) for calls, K·e^(−rT) for puts), or implies a vol outside [0.0001, 5.0].",
} as const;

/**
 * Implied volatility of a European option, or null when no vol in [IV_MIN, IV_MAX] reproduces the price
 * (price not finite, outside the no-arbitrage bounds, or T, S, K not positive).
 */
export function impliedVol(price: number, input: ImpliedVolInput): number | null {
  const { spot, strike, years, rate, dividendYield } = input;
  const finite = [price, spot, strike, years, rate, dividendYield].every(Number.isFinite);
  if (!finite || spot <= 0 || strike <= 0 || years <= 0) return null;

  const fwdS = spot * Math.exp(-dividendYield * years);
  const pvK = strike * Math.exp(-rate * years);
  const parity = fwdS - pvK; // C − P
  // Solve on the out-of-the-money twin: its price is pure time value, so a relative tolerance is meaningful.
  let right: OptionRight = input.right;
  let otmPrice = price;
  if (right === "C" && parity > 0) {
    right = "P";
    otmPrice = price - parity;
  } else if (right === "P" && parity < 0) {
    right = "C";
    otmPrice = price + parity;
  }
  const upper = right === "C" ? fwdS : pvK;
  if (!(otmPrice > 0) || otmPrice >= upper) return null;

  const base: ImpliedVolInput = { spot, strike, years, rate, dividendYield, right };
  const tol = IV_PRICE_TOL * Math.min(1, otmPrice);
  const diffAt = (vol: number) => bsmPrice({ ...base, vol }) - otmPrice;

  let lo = IV_MIN;
  let hi = IV_MAX;
  const diffLo = diffAt(lo);
  if (Math.abs(diffLo) <= tol) return lo;
  if (diffLo > 0) return null; // implied vol below IV_MIN
  const diffHi = diffAt(hi);
  if (Math.abs(diffHi) <= tol) return hi;
  if (diffHi < 0) return null; // implied vol above IV_MAX

  let vol = clamp(initialGuess(otmPrice, base, fwdS), lo, hi);
  for (let k = 0; k < MAX_ITERATIONS; k++) {
    const g = bsmGreeks({ ...base, vol });
    const diff = g.price - otmPrice;
    if (Math.abs(diff) <= tol) return vol;
    // Price is increasing in vol, so the sign of the error tells which side of the root we are on.
    if (diff < 0) lo = vol;
    else hi = vol;
    let next = vol - diff / g.vega;
    if (!(g.vega > 1e-12 * spot) || !(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (Math.abs(next - vol) <= VOL_STEP_TOL || hi - lo <= VOL_STEP_TOL) return next;
    vol = next;
  }
  return vol;
}

/**
 * Manaster–Koehler start sigma0 = sqrt(2|ln(F/K)|/T): the vol where vega peaks in sigma, from which Newton
 * converges monotonically. At the money forward that point is 0, so use Brenner–Subrahmanyam
 * sigma0 = sqrt(2π/T) · price / (S·e^(−qT)) instead.
 */
function initialGuess(price: number, i: ImpliedVolInput, fwdS: number): number {
  const logMoneyness = Math.log(fwdS / (i.strike * Math.exp(-i.rate * i.years))); // ln(F/K)
  if (Math.abs(logMoneyness) > 1e-3) return Math.sqrt((2 * Math.abs(logMoneyness)) / i.years);
  return Math.sqrt((2 * Math.PI) / i.years) * (price / fwdS);
}

function clamp(x: number, lo: number, hi: number): number {
  return Number.isFinite(x) ? Math.min(hi, Math.max(lo, x)) : 0.5 * (lo + hi);
}
