/**
 * Black-Scholes-Merton pricing and greeks for European options on an asset with a continuous dividend yield.
 * Inputs: spot S, strike K, time to expiry T in years, risk-free rate r and dividend yield q (continuous, decimal),
 * volatility sigma (annualised, decimal). Reference: Hull, "Options, Futures, and Other Derivatives", ch. 17 and 19.
 */
export type OptionRight = "C" | "P";

export interface BsmInput {
  spot: number;
  strike: number;
  years: number;
  rate: number;
  dividendYield: number;
  vol: number;
  right: OptionRight;
}

export interface Greeks {
  price: number;
  /** dV/dS */
  delta: number;
  /** d2V/dS2 */
  gamma: number;
  /** dV/dsigma per 1.00 (100 vol points); divide by 100 for per-vol-point. */
  vega: number;
  /** dV/dt per year (negative for decay); divide by 365 for per calendar day. */
  theta: number;
  /** dV/dr per 1.00 */
  rho: number;
}

const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);

export function normPdf(x: number): number {
  return INV_SQRT_2PI * Math.exp(-0.5 * x * x);
}

/** Standard normal CDF via erfc. */
export function normCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

/** Complementary error function: W. J. Cody (1969) rational Chebyshev approximations (relative error ~1e-16). */
export function erfc(x: number): number {
  const ax = Math.abs(x);
  let r: number;
  if (ax < 0.5) {
    const t = ax * ax;
    const num =
      (((0.1857777061846032 * t + 3.161123743870565) * t + 113.8641541510502) * t + 377.485237685302) * t +
      3209.377589138469;
    const den = (((t + 23.60129095234412) * t + 244.0246379344442) * t + 1282.616526077372) * t + 2844.236833439171;
    const erf = (ax * num) / den;
    r = 1 - erf;
  } else r = erfcTail(ax, Math.exp(-ax * ax));
  return x < 0 ? 2 - r : r;
}

/** erfc(ax) for ax ≥ 0.5 given g = e^(−ax²) (Cody's two outer ranges). */
function erfcTail(ax: number, g: number): number {
  if (ax < 4) {
    const num =
      (((((((2.1531153547440383e-8 * ax + 0.5641884969886701) * ax + 8.883149794388377) * ax + 66.11919063714163) * ax +
        298.6351381974001) *
        ax +
        881.952221241769) *
        ax +
        1712.0476126340707) *
        ax +
        2051.0783778260716) *
        ax +
      1230.3393547979972;
    const den =
      (((((((ax + 15.744926110709835) * ax + 117.6939508913125) * ax + 537.1811018620099) * ax + 1621.3895745666903) *
        ax +
        3290.7992357334597) *
        ax +
        4362.619090143247) *
        ax +
        3439.3676741437216) *
        ax +
      1230.3393548037495;
    return g * (num / den);
  } else {
    const z = 1 / (ax * ax);
    const num =
      ((((0.016315387137302097 * z + 0.30532663496123236) * z + 0.36034489994980445) * z + 0.12578172611122926) * z +
        0.016083785148742275) *
        z +
      0.0006587491615298378;
    const den =
      ((((z + 2.568520192289822) * z + 1.8729528499234673) * z + 0.5279051029514285) * z + 0.06051834131244132) * z +
      0.0023352049762686918;
    return (g / ax) * (0.5641895835477563 - (z * num) / den);
  }
}

/** Φ(x) when φ(x) is already known (saves the exponential; same approximation as normCdf). */
export function normCdfFromPdf(x: number, pdf: number): number {
  const ax = Math.abs(x) / Math.SQRT2;
  const r = ax < 0.5 ? erfc(ax) : erfcTail(ax, pdf * Math.sqrt(2 * Math.PI));
  return 0.5 * (x > 0 ? 2 - r : r);
}

function d1d2(i: BsmInput): [number, number] {
  const sqrtT = Math.sqrt(i.years);
  const d1 =
    (Math.log(i.spot / i.strike) + (i.rate - i.dividendYield + 0.5 * i.vol * i.vol) * i.years) / (i.vol * sqrtT);
  return [d1, d1 - i.vol * sqrtT];
}

/** Value at expiry (or with zero volatility): discounted intrinsic value of the forward. */
function degenerate(i: BsmInput): number {
  const fwdS = i.spot * Math.exp(-i.dividendYield * i.years);
  const pvK = i.strike * Math.exp(-i.rate * i.years);
  return Math.max(i.right === "C" ? fwdS - pvK : pvK - fwdS, 0);
}

/** Past expiry the option is worth its intrinsic value now: a negative time is expiry, never a negative discount. */
const atLeastExpiry = (i: BsmInput): BsmInput => (i.years < 0 ? { ...i, years: 0 } : i);
/** Total vol σ·√T this small is the zero-vol limit (d1 would divide by ~0). */
const degenerateInput = (i: BsmInput) => !(i.vol * Math.sqrt(i.years) > 1e-12);

export function bsmPrice(input: BsmInput): number {
  // A vol that is not a number or is negative is bad input, not the zero-vol limit.
  if (!(input.vol >= 0)) return Number.NaN;
  const i = atLeastExpiry(input);
  if (degenerateInput(i)) return degenerate(i);
  const [d1, d2] = d1d2(i);
  const dfq = Math.exp(-i.dividendYield * i.years);
  const dfr = Math.exp(-i.rate * i.years);
  return i.right === "C"
    ? i.spot * dfq * normCdf(d1) - i.strike * dfr * normCdf(d2)
    : i.strike * dfr * normCdf(-d2) - i.spot * dfq * normCdf(-d1);
}

/** Zero volatility or expiry: the limits of the greeks, deciding moneyness on the forward (S·e^(−qT) against K·e^(−rT)). */
function degenerateGreeks(i: BsmInput, price: number): Greeks {
  const dfq = Math.exp(-i.dividendYield * i.years);
  const dfr = Math.exp(-i.rate * i.years);
  const fwdS = i.spot * dfq;
  const pvK = i.strike * dfr;
  const itm = i.right === "C" ? fwdS > pvK : pvK > fwdS;
  if (!itm) return { price, delta: 0, gamma: 0, vega: 0, theta: 0, rho: 0 };
  const sign = i.right === "C" ? 1 : -1;
  if (i.years <= 0) return { price, delta: sign, gamma: 0, vega: 0, theta: 0, rho: 0 }; // expired: no time or rate left
  // V = sign·(S·e^(−qT) − K·e^(−rT)); theta = −dV/dT, rho = dV/dr.
  return {
    price,
    delta: sign * dfq,
    gamma: 0,
    vega: 0,
    theta: sign * (i.dividendYield * fwdS - i.rate * pvK),
    rho: sign * i.strike * i.years * dfr,
  };
}

const NOT_A_NUMBER: Greeks = {
  price: Number.NaN,
  delta: Number.NaN,
  gamma: Number.NaN,
  vega: Number.NaN,
  theta: Number.NaN,
  rho: Number.NaN,
};

export function bsmGreeks(input: BsmInput): Greeks {
  // A vol that is not a number or is negative is bad input, not the zero-vol limit: every greek is NaN.
  if (!(input.vol >= 0)) return NOT_A_NUMBER;
  const i = atLeastExpiry(input);
  const price = bsmPrice(i);
  if (degenerateInput(i)) return degenerateGreeks(i, price);
  const [d1, d2] = d1d2(i);
  const sqrtT = Math.sqrt(i.years);
  const dfq = Math.exp(-i.dividendYield * i.years);
  const dfr = Math.exp(-i.rate * i.years);
  const pdf1 = normPdf(d1);
  const gamma = (dfq * pdf1) / (i.spot * i.vol * sqrtT);
  const vega = i.spot * dfq * pdf1 * sqrtT;
  const decay = -(i.spot * dfq * pdf1 * i.vol) / (2 * sqrtT);
  if (i.right === "C") {
    return {
      price,
      delta: dfq * normCdf(d1),
      gamma,
      vega,
      theta: decay - i.rate * i.strike * dfr * normCdf(d2) + i.dividendYield * i.spot * dfq * normCdf(d1),
      rho: i.strike * i.years * dfr * normCdf(d2),
    };
  }
  return {
    price,
    delta: -dfq * normCdf(-d1),
    gamma,
    vega,
    theta: decay + i.rate * i.strike * dfr * normCdf(-d2) - i.dividendYield * i.spot * dfq * normCdf(-d1),
    rho: -i.strike * i.years * dfr * normCdf(-d2),
  };
}
