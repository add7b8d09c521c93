/**
 * The demo volatility surface of one symbol at one time: ATM level from the regime-driven daily path, a term
 * structure that is upward sloping when the short level is below the long-run one (calm) and inverted in stress,
 * event variance on expiries after the next earnings date, and a skew that makes downside strikes richer.
 */
import { BoundedMemo } from "../../util/bounded-memo";
import { DAY_MS, YEAR_MS, currentSession, dayStart, expiryCloseMs, isoDate, previousSession } from "./calendar";
import { demoClock } from "./clock";
import { nightVolFactor } from "./night";
import { dailyPoint, longRunVol, marketDay, type Regime } from "./paths";
import { spotAt } from "./intraday";
import { rateAt } from "./yields";
import { demoCashDividends, demoYield, nextEarnings, type DemoSymbol } from "./universe";
import { cashDividendsBefore } from "../../analytics/vol-surface";
import type { CashDividend } from "../../analytics/american";

export interface SurfaceContext {
  seed: number | string;
  sym: DemoSymbol;
  t: number;
  dayMs: number; // current session
  spot: number;
  atmShort: number; // instantaneous short-dated ATM vol
  longRun: number;
  regime: Regime;
  earningsMs: number | null; // next earnings date still ahead of this session
  refPrice: number; // previous close: centre of the strike grid, stable for the whole day
  refVol: number; // previous close's ATM vol: keeps open interest stable for the whole day
}

export interface Expiry {
  date: string;
  closeMs: number; // options stop trading at the exchange calendar's close of that date (expiryCloseMs)
  monthly: boolean;
}

const TERM_DECAY_YEARS = 0.3;

/** The short-dated ATM vol at t: in a session on its way from the previous close's to this close's, at night around it. */
function atmShortAt(seed: number | string, sym: DemoSymbol, dayMs: number, t: number): number {
  const today = dailyPoint(seed, sym.symbol, dayMs).atmVol;
  const clock = demoClock(t);
  if (clock.phase === "night") return today * nightVolFactor(seed, sym.symbol, dayMs, clock.minute);
  const prev = dailyPoint(seed, sym.symbol, previousSession(dayMs)).atmVol;
  return prev + (clock.minute / clock.minutes) * (today - prev);
}

export function surfaceContext(seed: number | string, sym: DemoSymbol, t: number): SurfaceContext {
  const dayMs = currentSession(t);
  const prev = dailyPoint(seed, sym.symbol, previousSession(dayMs));
  const earnings = nextEarnings(sym, dayMs + DAY_MS);
  return {
    seed,
    sym,
    t,
    dayMs,
    spot: spotAt(seed, sym.symbol, dayMs, t),
    atmShort: atmShortAt(seed, sym, dayMs, t),
    longRun: longRunVol(sym),
    regime: marketDay(seed, dayMs).regime,
    earningsMs: earnings,
    refPrice: prev.close,
    refVol: prev.atmVol,
  };
}

function thirdFriday(year: number, month: number): number {
  const first = Date.UTC(year, month, 1);
  const dow = new Date(first).getUTCDay();
  return first + (((5 - dow + 7) % 7) + 14) * DAY_MS;
}

const expiryCache = new BoundedMemo<string, Expiry[]>(5000);

/** Weekly Fridays for the next four weeks plus third-Friday monthlies out to about six months. */
export function listExpiries(t: number): Expiry[] {
  const today = dayStart(t);
  const key = `${today}|${t >= expiryCloseMs(today)}`; // the list only changes when today's expiry closes
  return expiryCache.get(key, () => buildExpiries(t));
}

function buildExpiries(t: number): Expiry[] {
  const today = dayStart(t);
  const out = new Map<number, boolean>();
  let friday = today + ((5 - new Date(today).getUTCDay() + 7) % 7) * DAY_MS;
  if (expiryCloseMs(friday) <= t) friday += 7 * DAY_MS;
  for (let k = 0; k < 4; k++) out.set(friday + 7 * k * DAY_MS, false);
  const d = new Date(today);
  for (let k = 0; k <= 7; k++) {
    const tf = thirdFriday(d.getUTCFullYear(), d.getUTCMonth() + k);
    if (expiryCloseMs(tf) > t && tf - today <= 190 * DAY_MS) out.set(tf, true);
  }
  return [...out.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([ms, monthly]) => ({ date: isoDate(ms), closeMs: expiryCloseMs(ms), monthly }));
}

export function strikeStep(price: number): number {
  const target = price * 0.02;
  for (const step of [0.5, 1, 2.5, 5, 10, 25, 50, 100]) if (step >= target) return step;
  return 100;
}

/** Strikes within ±25 % of the previous close. */
export function strikeGrid(refPrice: number): number[] {
  const step = strikeStep(refPrice);
  const lo = Math.ceil((refPrice * 0.75) / step);
  const hi = Math.floor((refPrice * 1.25) / step);
  const out: number[] = [];
  for (let k = lo; k <= hi; k++) out.push(Math.round(k * step * 100) / 100);
  return out;
}

/** Per-expiry values shared by all strikes: time, rate, forward and the ATM vol with any event variance. */
export interface ExpiryPoint {
  /** Cash dividends going ex before the expiry (years from t), priced discretely (see DEMO_CASH_DIVIDENDS). */
  cash: CashDividend[];
  years: number;
  rate: number;
  forward: number;
  atmVol: number;
  sqrtT: number;
}

export interface SurfacePoint {
  vol: number; // at this strike
  z: number; // standardised moneyness ln(K/F) / (atmVol √T), clamped to ±4
}

export function expiryPoint(
  ctx: SurfaceContext,
  expiry: Expiry,
  spot = ctx.spot,
  atmShort = ctx.atmShort,
): ExpiryPoint {
  const years = Math.max((expiry.closeMs - ctx.t) / YEAR_MS, 1 / (365 * 24 * 4));
  const rate = rateAt(ctx.seed, ctx.dayMs, years);
  const cash = cashDividendsBefore(demoCashDividends(ctx.sym, ctx.dayMs, expiry.closeMs), new Date(ctx.t), years);
  const pv = cash.reduce((s, d) => s + d.amount * Math.exp(-rate * d.years), 0);
  const forward = (spot - pv) * Math.exp((rate - demoYield(ctx.sym)) * years);
  const lr2 = ctx.longRun * ctx.longRun;
  let variance = (lr2 + (atmShort * atmShort - lr2) * Math.exp(-years / TERM_DECAY_YEARS)) * years;
  const expiryDay = expiry.closeMs - (expiry.closeMs % DAY_MS);
  if (ctx.earningsMs !== null && ctx.earningsMs <= expiryDay) variance += ctx.sym.earningsMove ** 2; // event variance
  return { cash, years, rate, forward, atmVol: Math.sqrt(variance / years), sqrtT: Math.sqrt(years) };
}

export function surfacePoint(ctx: SurfaceContext, e: ExpiryPoint, strike: number): SurfacePoint {
  const z = Math.max(-4, Math.min(4, Math.log(strike / e.forward) / (e.atmVol * e.sqrtT)));
  const skew = (ctx.sym.kind === "index" ? 0.14 : 0.08) * (ctx.regime === "stressed" ? 1.3 : 1);
  const smile = ctx.sym.kind === "index" ? 0.01 : 0.018;
  return { z, vol: e.atmVol * Math.max(0.5, 1 - skew * z + smile * z * z) };
}
