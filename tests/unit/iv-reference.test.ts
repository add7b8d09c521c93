/**
 * impliedVol against the solver it replaced (checks both bracket ends up front and takes the full bsmGreeks on each
 * Newton step), copied verbatim below as referenceImpliedVol: same answers, to 1e-9 in vol or both null.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { bsmGreeks, bsmPrice } from "../../lib/analytics/bsm";
import type { OptionRight } from "../../lib/analytics/bsm";
import { IV_MAX, IV_MIN, IV_PRICE_TOL, identifies, impliedVol } from "../../lib/analytics/iv";
import type { ImpliedVolInput } from "../../lib/analytics/iv";

const MAX_ITERATIONS = 200;
const VOL_STEP_TOL = 1e-14;

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Case {
  price: number;
  input: ImpliedVolInput;
  what: string;
}

function compare(cases: Case[]): { solved: number; nulls: number; identical: number } {
  let solved = 0;
  let nulls = 0;
  let identical = 0;
  for (const c of cases) {
    // The reference solver has no identification rule: where its vol's vega is below MIN_VEGA_FRACTION of spot the
    // price does not identify the vol and the answer is null (iv.ts definitions.impliedVol, issue 31 item 4).
    const reference = referenceImpliedVol(c.price, c.input);
    const expected = reference !== null && identifies(c.input, reference) ? reference : null;
    const actual = impliedVol(c.price, c.input);
    if (expected === null || actual === null) {
      assert.equal(actual, expected, `${c.what}: new ${actual}, reference ${expected}`);
      nulls++;
      identical++;
      continue;
    }
    assert.ok(Math.abs(actual - expected) <= 1e-9, `${c.what}: new ${actual}, reference ${expected}`);
    if (actual === expected) identical++;
    solved++;
  }
  return { solved, nulls, identical };
}

test("matches the reference solver on 6,000 seeded random options (both rights, cents-rounded and exact prices)", () => {
  const next = rng(20240611);
  const cases: Case[] = [];
  for (let n = 0; n < 6000; n++) {
    const spot = 20 + 480 * next();
    const moneyness = 0.5 + 1.1 * next(); // K/S
    const years = (1 + 729 * next()) / 365; // 1 day to 2 years
    const vol = 0.05 + 1.95 * next();
    const rate = -0.01 + 0.09 * next();
    const dividendYield = 0.05 * next();
    const right: OptionRight = next() < 0.5 ? "C" : "P";
    const input = { spot, strike: spot * moneyness, years, rate, dividendYield, right };
    const exact = bsmPrice({ ...input, vol });
    const price = n % 2 === 0 ? exact : Math.round(exact * 100) / 100;
    const what = `#${n} S=${spot} K=${input.strike} T=${years} vol=${vol} r=${rate} q=${dividendYield} ${right} price=${price}`;
    cases.push({ price, input, what });
  }
  const { solved, nulls, identical } = compare(cases);
  assert.equal(solved + nulls, 6000);
  // Both kinds of answer are exercised: rounding to cents pushes short-dated far-from-the-money prices out of range.
  assert.ok(solved > 5000, `only ${solved} solved`);
  assert.ok(nulls > 50, `only ${nulls} nulls`);
  // Same arithmetic, same iterates: the answers are not just close but the same numbers.
  assert.equal(identical, 6000);
});

test("matches the reference solver at the edges of the vol range and of the no-arbitrage bounds", () => {
  const next = rng(7);
  const cases: Case[] = [];
  const vols = [IV_MIN, 1.5e-4, 1e-3, 0.01, 4.5, 4.99, IV_MAX, 5.01, 6, 10];
  for (let n = 0; n < 2000; n++) {
    const spot = 100;
    const input = {
      spot,
      strike: spot * (0.5 + 1.1 * next()),
      years: (1 + 729 * next()) / 365,
      rate: -0.01 + 0.09 * next(),
      dividendYield: 0.05 * next(),
      right: (n % 2 === 0 ? "C" : "P") as OptionRight,
    };
    const vol = vols[n % vols.length];
    const exact = bsmPrice({ ...input, vol });
    // Exact, nudged by a fraction of the price tolerance either way, and rounded to cents.
    const nudge = IV_PRICE_TOL * Math.min(1, exact) * (4 * next() - 2);
    const price = [exact, exact + nudge, Math.round(exact * 100) / 100][n % 3];
    cases.push({ price, input, what: `#${n} ${JSON.stringify(input)} vol=${vol} price=${price}` });
  }
  const { solved, nulls, identical } = compare(cases);
  assert.ok(solved > 500 && nulls > 500, `solved ${solved}, nulls ${nulls}`);
  assert.equal(identical, 2000);
});

// ---- Reference: impliedVol as it was before the price-and-vega evaluator and the lazy bracket ends. ----

function referenceImpliedVol(price: number, input: ImpliedVolInput): number | null {
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

  let vol = referenceClamp(referenceInitialGuess(otmPrice, base, fwdS), lo, hi);
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
function referenceInitialGuess(price: number, i: ImpliedVolInput, fwdS: number): number {
  const logMoneyness = Math.log(fwdS / (i.strike * Math.exp(-i.rate * i.years))); // ln(F/K)
  if (Math.abs(logMoneyness) > 1e-3) return Math.sqrt((2 * Math.abs(logMoneyness)) / i.years);
  return Math.sqrt((2 * Math.PI) / i.years) * (price / fwdS);
}

function referenceClamp(x: number, lo: number, hi: number): number {
  return Number.isFinite(x) ? Math.min(hi, Math.max(lo, x)) : 0.5 * (lo + hi);
}
