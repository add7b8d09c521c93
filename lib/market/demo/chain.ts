/**
 * Option quotes of the demo market: BSM (American for DEMO_AMERICAN names) prices off the demo surface, spreads that widen away from the money and at
 * the short and long ends, and volume / open interest concentrated near the money and in the front months.
 */
import { bsmPrice, type OptionRight } from "../../analytics/bsm";
import { americanPrice } from "../../analytics/american";
import type { OptionQuote } from "../../analytics/types";
import { DAY_MS, sessionMinute, sessionMinutes, cumulativeVolumeShare } from "./calendar";
import { Rng, extendKey, fmix32, rngFor, streamKey } from "./prng";
import { cents } from "./intraday";
import {
  expiryPoint,
  listExpiries,
  strikeGrid,
  surfaceContext,
  surfacePoint,
  type Expiry,
  type ExpiryPoint,
  type SurfaceContext,
} from "./surface";
import { demoExerciseStyle, demoYield, type DemoSymbol } from "./universe";

const RIGHTS: OptionRight[] = ["C", "P"];

/** Put/call volume tilt of a symbol for a day; puts are busier in stress. */
export function putTilt(ctx: SurfaceContext): number {
  const tilt = 0.8 * Math.exp(0.25 * rngFor(ctx.seed, "pcr", ctx.sym.symbol, ctx.dayMs).normal());
  return ctx.regime === "stressed" ? tilt * 1.4 : tilt;
}

function spreadFraction(z: number, days: number, activity: number): number {
  const tenor = days < 3 ? 1.6 : days < 10 ? 1.2 : days > 90 ? 1.3 : 1;
  return Math.min(0.6, ((0.015 + 0.012 * z * z) * tenor) / Math.sqrt(Math.max(activity, 0.25)));
}

/** Bid/ask in cents around a model mid; options worth under a cent are bid at zero. */
export function quoteAround(mid: number, spread: number): { bid: number; ask: number } {
  if (mid < 0.01) return { bid: 0, ask: cents(Math.max(0.01, Math.min(0.05, spread))) };
  const bid = Math.max(0.01, cents(mid - spread / 2));
  const ask = Math.max(bid + 0.01, cents(mid + spread / 2));
  return { bid, ask: cents(ask) };
}

/** What every strike of one expiry shares: surface points now and at the previous close, and the stream key prefix. */
export interface ExpiryQuoter {
  ctx: SurfaceContext;
  expiry: Expiry;
  live: ExpiryPoint;
  ref: ExpiryPoint; // previous close's spot and vol: volume only grows and open interest holds all day
  days: number;
  keyPrefix: number;
  tilt: number;
}

export function expiryQuoter(ctx: SurfaceContext, expiry: Expiry, tilt: number): ExpiryQuoter {
  return {
    ctx,
    expiry,
    tilt,
    live: expiryPoint(ctx, expiry),
    ref: expiryPoint(ctx, expiry, ctx.refPrice, ctx.refVol),
    days: (expiry.closeMs - ctx.t) / DAY_MS,
    keyPrefix: streamKey(ctx.seed, "contract", ctx.sym.symbol, expiry.date),
  };
}

export function quoteContract(q: ExpiryQuoter, strike: number, right: OptionRight): OptionQuote {
  const { ctx, expiry, days } = q;
  const sp = surfacePoint(ctx, q.live, strike);
  const model = demoExerciseStyle(ctx.sym) === "american" ? americanPrice : bsmPrice;
  const mid = model({
    spot: ctx.spot,
    strike,
    years: q.live.years,
    rate: q.live.rate,
    dividendYield: demoYield(ctx.sym),
    vol: sp.vol,
    right,
    cashDividends: q.live.cash,
  });
  const intrinsic = Math.max(0, right === "C" ? ctx.spot - strike : strike - ctx.spot);
  // Market makers quote time value; the intrinsic part is hedgeable with stock and adds little width.
  const extrinsic = Math.max(0, mid - intrinsic);
  const spread = Math.max(
    mid < 3 ? 0.01 : 0.05,
    extrinsic * spreadFraction(sp.z, days, ctx.sym.optionActivity) + 0.004 * intrinsic,
  );
  const { bid, ask } = quoteAround(mid, spread);
  const refZ = surfacePoint(ctx, q.ref, strike).z;
  const key = extendKey(q.keyPrefix, strike, right, ctx.dayMs);
  const rng = new Rng(key);
  const tenorVolume = days <= 2 ? 2.5 : days <= 9 ? 1.6 : days <= 35 ? 1 : expiry.monthly ? 0.6 : 0.45;
  const activity = ctx.sym.optionActivity * (ctx.regime === "stressed" ? 1.4 : 1) * (right === "P" ? q.tilt : 1);
  const dailyVolume = 700 * activity * tenorVolume * Math.exp(-(refZ * refZ) / 2.4) * Math.exp(0.5 * rng.normal());
  const volume = Math.floor(
    dailyVolume * cumulativeVolumeShare(sessionMinute(ctx.dayMs, ctx.t), sessionMinutes(ctx.dayMs)),
  );
  const tenorOi = (expiry.monthly ? 2 : 0.8) * Math.min(1.5, 0.4 + days / 60);
  const openInterest = Math.floor(
    4000 * ctx.sym.optionActivity * tenorOi * Math.exp(-(refZ * refZ) / 5) * Math.exp(0.4 * rng.normal()),
  );
  const lastDraw = new Rng(fmix32(key ^ Math.floor(ctx.t / 60_000))).next();
  const last = volume > 0 && mid >= 0.01 ? Math.max(0.01, cents(mid + (lastDraw - 0.5) * (ask - bid))) : null;
  return {
    symbol: ctx.sym.symbol,
    asOf: new Date(ctx.t),
    expiry: expiry.date,
    strike,
    right,
    bid,
    ask,
    last,
    volume,
    openInterest,
  };
}

export function hasOptions(sym: DemoSymbol): boolean {
  return sym.kind !== "volatility_index"; // VIX options price off VIX futures, which the demo market does not model
}

/** The full chain of a symbol at time t (t should be a minute boundary). */
export function symbolChain(seed: number | string, sym: DemoSymbol, t: number): OptionQuote[] {
  if (!hasOptions(sym)) return [];
  const ctx = surfaceContext(seed, sym, t);
  const tilt = putTilt(ctx);
  const strikes = strikeGrid(ctx.refPrice);
  const out: OptionQuote[] = [];
  for (const expiry of listExpiries(t)) {
    const q = expiryQuoter(ctx, expiry, tilt);
    for (const strike of strikes) for (const right of RIGHTS) out.push(quoteContract(q, strike, right));
  }
  return out;
}

/** The reduced end-of-day chain kept for IV history: the 2 expiries bracketing 30 days × 4 strikes nearest spot. */
export function reducedChain(seed: number | string, sym: DemoSymbol, t: number): OptionQuote[] {
  if (!hasOptions(sym)) return [];
  const ctx = surfaceContext(seed, sym, t);
  const tilt = putTilt(ctx);
  const expiries = listExpiries(t);
  const after = expiries.findIndex((e) => e.closeMs - t > 30 * DAY_MS);
  const chosen = after <= 0 ? expiries.slice(0, 2) : expiries.slice(after - 1, after + 1);
  const strikes = strikeGrid(ctx.refPrice)
    .map((k) => [k, Math.abs(k - ctx.spot)] as const)
    .sort((a, b) => a[1] - b[1] || a[0] - b[0])
    .slice(0, 4)
    .map(([k]) => k)
    .sort((a, b) => a - b);
  const out: OptionQuote[] = [];
  for (const expiry of chosen) {
    const q = expiryQuoter(ctx, expiry, tilt);
    for (const strike of strikes) for (const right of RIGHTS) out.push(quoteContract(q, strike, right));
  }
  return out;
}

export { RIGHTS };
