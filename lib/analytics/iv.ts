/**
 * Black-Scholes-Merton implied volatility: the vol that reproduces an option's price.
 * Safeguarded Newton-Raphson on vega inside a bisection bracket [IV_MIN, IV_MAX].
 * References: Hull, "Options, Futures, and Other Derivatives", §15.11 (implied volatility);
 * Manaster & Koehler (1982), "The Calculation of Implied Variances from the Black-Scholes Model";
 * Brenner & Subrahmanyam (1988), "A Simple Formula to Compute the Implied Standard Deviation".
 */
import { normCdf, normPdf } from "./bsm";
import type { BsmInput, OptionRight } from "./bsm";

export const IV_MIN = 1e-4;
export const IV_MAX = 5.0;
/** Convergence tolerance on the model-minus-market price, in price units (tightened for prices below 1). */
export const IV_PRICE_TOL = 1e-8;
const MAX_ITERATIONS = 200;
const VOL_STEP_TOL = 1e-14;

export type ImpliedVolInput = Omit<BsmInput, "vol">;

/**
 * The price identifies the vol only where it moves with it: vega (per 1.00 of vol) at least this fraction of spot,
 * i.e. one vol point moves the price by at least 1e-6 of spot. Below it (an option at its
 * no-arbitrage bound, deep in the money with only carry, or far out of the money near expiry) a wide range of vols
 * gives the same price and the implied vol is unknown (null).
 */
export const MIN_VEGA_FRACTION = 1e-4;

export const definitions = {
  impliedVol:
    "Implied volatility (annualised, decimal; 0.25 = 25 %): the volatility sigma for which the Black-Scholes-Merton " +
    "price with continuous dividend yield q equals the option's price. Solved by Newton-Raphson on vega, with " +
    "bisection in [0.0001, 5.0] whenever a Newton step leaves the bracket or vega is negligible, until the price " +
    "error is below 1e-8 (relative for prices under 1). In-the-money options are solved through their out-of-the-money " +
    "put-call-parity twin (C − P = S·e^(−qT) − K·e^(−rT)), which has the same implied vol. Not defined (null) when the " +
    "price is not finite, is at or below the no-arbitrage lower bound max(±(S·e^(−qT) − K·e^(−rT)), 0), is at or above " +
    "the upper bound (S·e^(−qT) for calls, K·e^(−rT) for puts), implies a vol outside [0.0001, 5.0], or where the " +
    "price does not identify the vol: the vega at the solved vol (per 1.00 of vol) is below 0.0001 × spot, so one vol " +
    "point moves the price by less than 1e-6 of spot (an option at its no-arbitrage bound, or far out of the money " +
    "near expiry).",
} as const;

/**
 * Implied volatility of a European option, or null when no vol in [IV_MIN, IV_MAX] reproduces the price
 * (price not finite, outside the no-arbitrage bounds, or T, S, K not positive).
 */
export function impliedVol(price: number, input: ImpliedVolInput): number | null {
  const vol = solveImpliedVol(price, input);
  return vol !== null && identifies(input, vol) ? vol : null;
}

/** Whether the European price at `vol` identifies the vol (see MIN_VEGA_FRACTION). */
export function identifies(i: ImpliedVolInput, vol: number): boolean {
  const sqrtT = Math.sqrt(i.years);
  const d1 = (Math.log(i.spot / i.strike) + (i.rate - i.dividendYield + 0.5 * vol * vol) * i.years) / (vol * sqrtT);
  return i.spot * Math.exp(-i.dividendYield * i.years) * normPdf(d1) * sqrtT >= MIN_VEGA_FRACTION * i.spot;
}

/** The vol reproducing the price (no identification check): the solve behind impliedVol. */
export function solveImpliedVol(price: number, input: ImpliedVolInput): number | null {
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
  const model: Model = {
    call: right === "C",
    fwdS,
    pvK,
    logSK: Math.log(spot / strike),
    drift: rate - dividendYield,
    years,
    sqrtT: Math.sqrt(years),
    vega: 0,
  };

  // The bracket ends are priced lazily. Price is increasing in vol, so any evaluated vol whose price error is below
  // −tol proves the error at IV_MIN is below −tol too (and one above +tol proves it for IV_MAX); an end that no
  // Newton step has vouched for is priced just before returning. The iteration itself only uses the constants
  // IV_MIN and IV_MAX, never the prices there, so this gives exactly the answers of checking both ends up front.
  let loChecked = false;
  let hiChecked = false;
  let lo = IV_MIN;
  let hi = IV_MAX;
  let vol = clamp(initialGuess(otmPrice, base, fwdS), lo, hi);
  for (let k = 0; k < MAX_ITERATIONS; k++) {
    const diff = priceAndVega(model, vol) - otmPrice;
    const vega = model.vega;
    if (Math.abs(diff) <= tol) return settle(model, otmPrice, tol, loChecked, hiChecked, vol);
    // Price is increasing in vol, so the sign of the error tells which side of the root we are on.
    if (diff < 0) {
      lo = vol;
      loChecked = true; // |diff| > tol here, so diff < −tol
    } else {
      hi = vol;
      hiChecked = true;
    }
    let next = vol - diff / vega;
    if (!(vega > 1e-12 * spot) || !(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (Math.abs(next - vol) <= VOL_STEP_TOL || hi - lo <= VOL_STEP_TOL)
      return settle(model, otmPrice, tol, loChecked, hiChecked, next);
    vol = next;
  }
  return settle(model, otmPrice, tol, loChecked, hiChecked, vol);
}

/** Per-call constants of the (out-of-the-money twin) option being solved; `vega` is an output of priceAndVega. */
interface Model {
  call: boolean;
  /** S·e^(−qT) */
  fwdS: number;
  /** K·e^(−rT) */
  pvK: number;
  /** ln(S/K) */
  logSK: number;
  /** r − q */
  drift: number;
  years: number;
  sqrtT: number;
  vega: number;
}

/**
 * The Black-Scholes-Merton price at `vol` (vol > 0, T > 0), with the vega stored in m.vega: bsmPrice and
 * bsmGreeks(...).vega, evaluated in the same order of operations (so to the same bits) but sharing d1, d2 and the
 * discount factors, and without the other greeks.
 */
function priceAndVega(m: Model, vol: number): number {
  const d1 = (m.logSK + (m.drift + 0.5 * vol * vol) * m.years) / (vol * m.sqrtT);
  const d2 = d1 - vol * m.sqrtT;
  m.vega = m.fwdS * normPdf(d1) * m.sqrtT;
  return m.call ? m.fwdS * normCdf(d1) - m.pvK * normCdf(d2) : m.pvK * normCdf(-d2) - m.fwdS * normCdf(-d1);
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

/** `result`, unless checking the bracket ends up front would have answered earlier (IV_MIN, IV_MAX or null). */
function settle(
  model: Model,
  otmPrice: number,
  tol: number,
  loChecked: boolean,
  hiChecked: boolean,
  result: number,
): number | null {
  if (!loChecked) {
    const diffLo = priceAndVega(model, IV_MIN) - otmPrice;
    if (Math.abs(diffLo) <= tol) return IV_MIN;
    if (diffLo > 0) return null; // implied vol below IV_MIN
  }
  if (!hiChecked) {
    const diffHi = priceAndVega(model, IV_MAX) - otmPrice;
    if (Math.abs(diffHi) <= tol) return IV_MAX;
    if (diffHi < 0) return null; // implied vol above IV_MAX
  }
  return result;
}
