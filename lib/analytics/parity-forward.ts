/**
 * The forward of one expiry from put–call parity (definitions.impliedForward in vol-surface.ts): the strikes' estimates
 * K + e^(rT)·(C − P), American mids first made European under the carry model, and the tolerance they must agree to.
 */
import { bsmPrice } from "./bsm";
import { americanImpliedVol, escrowedCarry, escrowedSpot, type CashDividend } from "./american";
import type { ExerciseStyle, OptionQuote } from "./types";

/** Put–call parity forward: strikes within this fraction of spot, each leg's (ask − bid)/mid at most PARITY_MAX_SPREAD. */
export const PARITY_BAND = 0.1;
export const PARITY_MAX_SPREAD = 0.25;
/** The forward is the median over this many strikes with the smallest |C − P| (the nearest the forward). */
export const PARITY_STRIKES = 3;
/** An implied carry yield above this (decimal, annual) is a bad print, not a forward: fall back to the yield. */
export const PARITY_MAX_YIELD = 1;
/**
 * Lowest implied carry yield accepted: a forward above S·e^((r + 0.01)T) would be a cash-and-carry arbitrage (buy the
 * stock, sell it forward) beyond a 1 % funding spread, so such quotes are inconsistent, not a forward.
 */
export const PARITY_MIN_YIELD = -0.01;
/** Most passes of the American forward's strip, and the move (fraction of spot) below which the forward has settled. */
export const PARITY_PASSES = 4;
export const PARITY_SETTLED = 1e-5;
/** Part of the American parity tolerance for the model's own price error (fraction of spot). */
export const AMERICAN_PARITY_ALLOWANCE = 1e-4;

export interface ImpliedForward {
  forward: number;
  /** q with F = S·e^((r−q)T) (continuous, decimal): implied dividend plus borrow, or the instrument's yield. */
  dividendYield: number;
  source: "parity" | "yield";
}

/** The parity strip of one expiry: its forward, the range of the strikes' estimates and the range they may span. */
export interface ParityFit {
  forward: number;
  spread: number;
  tolerance: number;
}

export function usableMid(q: OptionQuote): number | null {
  if (!(q.bid > 0) || !(q.ask >= q.bid) || !Number.isFinite(q.ask)) return null;
  return (q.bid + q.ask) / 2;
}

export function mid(q: OptionQuote): number {
  return (q.bid + q.ask) / 2;
}

const relSpread = (q: OptionQuote) => (q.ask - q.bid) / ((q.ask + q.bid) / 2);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
};

type ParityPair = { strike: number; call: number; put: number; width: number };

/** Each quote list's pairs at the spot they were chosen for: the implied-dividend search strips one expiry many times. */
const pairsMemo = new WeakMap<readonly OptionQuote[], { spot: number; pairs: ParityPair[] }>();

/** The PARITY_STRIKES pairs nearest the forward (smallest |C − P|) among the qualifying strikes. */
function parityPairs(quotes: readonly OptionQuote[], spot: number): ParityPair[] {
  const held = pairsMemo.get(quotes);
  if (held?.spot === spot) return held.pairs;
  const pairs = choosePairs(quotes, spot);
  pairsMemo.set(quotes, { spot, pairs });
  return pairs;
}

function choosePairs(quotes: readonly OptionQuote[], spot: number): ParityPair[] {
  const pairs = new Map<number, { C?: OptionQuote; P?: OptionQuote }>();
  for (const quote of quotes) {
    if (Math.abs(quote.strike / spot - 1) > PARITY_BAND || usableMid(quote) === null) continue;
    if (!(relSpread(quote) <= PARITY_MAX_SPREAD)) continue;
    const pair = pairs.get(quote.strike) ?? {};
    pair[quote.right] ??= quote;
    pairs.set(quote.strike, pair);
  }
  return [...pairs.entries()]
    .flatMap(([strike, p]) =>
      p.C && p.P ? [{ strike, call: mid(p.C), put: mid(p.P), width: p.C.ask - p.C.bid + p.P.ask - p.P.bid }] : [],
    )
    .sort((a, b) => Math.abs(a.call - a.put) - Math.abs(b.call - b.put))
    .slice(0, PARITY_STRIKES);
}

/**
 * How an American strip starts and how long it may run: `start`, the forward whose carry the first pass uses (a
 * nearby strip's forward, instead of the raw mids' median); `passes`, at most this many passes (PARITY_PASSES).
 */
export interface StripOptions {
  start?: number;
  passes?: number;
  /** The cash-dividend lattice's steps in the American IV solves (fewer for the implied-dividend search). */
  latticeSteps?: number;
}

/** The parity strip (see definitions.impliedForward); null when no strike qualifies. */
export function parityFit(
  quotes: readonly OptionQuote[],
  spot: number,
  years: number,
  rate: number,
  style: ExerciseStyle = "european",
  cash: readonly CashDividend[] = [],
  strip: StripOptions = {},
): ParityFit | null {
  const mids = parityPairs(quotes, spot);
  if (mids.length === 0) return null;
  const growth = Math.exp(rate * years);
  let estimates = mids.map((m) => m.strike + growth * (m.call - m.put));
  let forward = median(estimates);
  // Each estimate is known to within its quotes' widths (× e^(rT)); n strikes spread up to √n of the widest.
  let tolerance = growth * Math.max(...mids.map((m) => m.width)) * Math.sqrt(mids.length) + 1e-6 * spot;
  if (style === "american" && forward > 0) {
    // The premia depend on the carry, which depends on the forward: strip again until the forward settles.
    if (strip.start !== undefined && strip.start > 0) forward = strip.start;
    let adjustment = 0;
    for (let pass = 0; pass < (strip.passes ?? PARITY_PASSES); pass++) {
      const european = europeanEstimates(mids, { spot, years, rate, forward, cash }, strip.latticeSteps);
      if (european.estimates.length === 0) break;
      estimates = european.estimates;
      const next = median(estimates);
      adjustment = european.adjustment;
      const moved = Math.abs(next - forward);
      forward = next;
      if (moved <= PARITY_SETTLED * spot) break;
    }
    tolerance += 2 * adjustment + AMERICAN_PARITY_ALLOWANCE * spot;
  }
  return { forward, spread: Math.max(...estimates) - Math.min(...estimates), tolerance };
}

/** Forward of one expiry from put–call parity (see definitions.impliedForward); the yield forward when none qualifies. */
export function impliedForward(
  quotes: readonly OptionQuote[],
  spot: number,
  years: number,
  rate: number,
  q: number,
  style: ExerciseStyle = "european",
  cash: readonly CashDividend[] = [],
): ImpliedForward {
  return forwardOfFit(parityFit(quotes, spot, years, rate, style, cash), spot, years, rate, q, cash);
}

/** impliedForward from an expiry's parity strip already fitted under the same cash dividends. */
export function forwardOfFit(
  fit: ParityFit | null,
  spot: number,
  years: number,
  rate: number,
  q: number,
  cash: readonly CashDividend[] = [],
): ImpliedForward {
  const accepted = fit !== null && fit.spread <= fit.tolerance ? parityForward(fit.forward, spot, years, rate) : null;
  return accepted ?? yieldForward(spot, years, rate, q, cash);
}

/** The parity forward with its carry yield, or null when that yield is implausible (see PARITY_MIN_YIELD). */
export function parityForward(forward: number, spot: number, years: number, rate: number): ImpliedForward | null {
  const dividendYield = rate - Math.log(forward / spot) / years;
  if (!(forward > 0) || !(dividendYield >= PARITY_MIN_YIELD && dividendYield <= PARITY_MAX_YIELD)) return null;
  return { forward, dividendYield, source: "parity" };
}

/** The fallback: S·e^((r−q)T), or with cash dividends before expiry the escrowed spot grown at r (they replace q). */
export function yieldForward(
  spot: number,
  years: number,
  rate: number,
  q: number,
  cash: readonly CashDividend[],
): ImpliedForward {
  if (cash.length === 0) return { forward: spot * Math.exp((rate - q) * years), dividendYield: q, source: "yield" };
  const pvCash = cash.reduce((s, d) => s + d.amount * Math.exp(-rate * d.years), 0);
  return {
    forward: (spot - pvCash) * Math.exp(rate * years),
    dividendYield: -Math.log(1 - pvCash / spot) / years,
    source: "yield",
  };
}

/**
 * American mids carry early-exercise premia that parity does not: each strike's call and put made European at its own
 * American IV under the raw forward's carry (with cash dividends the escrowed model on S* and the carry that grows S*
 * to the forward), and the largest change this made to an estimate (the model's part of it).
 */
function europeanEstimates(
  mids: readonly { strike: number; call: number; put: number }[],
  at: { spot: number; years: number; rate: number; forward: number; cash: readonly CashDividend[] },
  latticeSteps?: number,
): { estimates: number[]; adjustment: number } {
  const { spot, years, rate, forward, cash } = at;
  const growth = Math.exp(rate * years);
  const carry = escrowedCarry(spot, forward, years, rate, cash);
  const sStar = escrowedSpot(spot, rate, carry, years, cash);
  const base = { spot, years, rate, dividendYield: carry, cashDividends: cash };
  let adjustment = 0;
  const estimates = mids.flatMap((m) => {
    const cv = americanImpliedVol(m.call, { ...base, strike: m.strike, right: "C" }, latticeSteps);
    const pv = americanImpliedVol(m.put, { ...base, strike: m.strike, right: "P" }, latticeSteps);
    if (cv === null || pv === null) return [];
    const eu = { spot: sStar, years, rate, dividendYield: carry, strike: m.strike };
    const c = bsmPrice({ ...eu, right: "C", vol: cv });
    const p = bsmPrice({ ...eu, right: "P", vol: pv });
    adjustment = Math.max(adjustment, growth * Math.abs(c - p - (m.call - m.put)));
    return [m.strike + growth * (c - p)];
  });
  return { estimates, adjustment };
}
