/**
 * Minute-by-minute prices inside a session: a Brownian bridge from the session's open to its close, so the
 * intraday path always lands on the daily path. Equity shocks are correlated with the index's, the VIX's inversely.
 */
import type { Bar } from "../../analytics/types";
import { rngFor } from "./prng";
import { dailyPoint } from "./paths";
import {
  cumulativeVolumeShare,
  MINUTE_MS,
  SESSION_MINUTES,
  sessionClose,
  sessionMinute,
  sessionMinutes,
  sessionOpen,
} from "./calendar";
import { demoSymbol } from "./universe";

const INTRADAY_SHARE = 0.75; // share of daily variance that accrues during the session rather than overnight
const CORRELATION = { equity: 0.6, etf: 0.9, index: 1, volatility_index: -0.75 } as const;
const MAX_CACHED = 600;

const pathCache = new Map<string, Float64Array>();
const indexShocks = new Map<string, Float64Array>();

function cached<T>(map: Map<string, T>, key: string, make: () => T): T {
  let v = map.get(key);
  if (v === undefined) {
    if (map.size >= MAX_CACHED) map.delete(map.keys().next().value as string); // oldest first
    v = make();
    map.set(key, v);
  }
  return v;
}

function marketShocks(seed: number | string, dayMs: number): Float64Array {
  return cached(indexShocks, `${seed}|${dayMs}`, () => {
    const rng = rngFor(seed, "minute-market", dayMs);
    const n = sessionMinutes(dayMs);
    const z = new Float64Array(n);
    for (let m = 0; m < n; m++) z[m] = rng.fastNormal();
    return z;
  });
}

const scratch = new Float64Array(SESSION_MINUTES + 1);

/** Log prices at minutes 0…n of the session (n = sessionMinutes: 390, fewer on an early close; 0 = open, n = close). */
function logPath(seed: number | string, symbol: string, dayMs: number): Float64Array {
  const n = sessionMinutes(dayMs);
  const point = dailyPoint(seed, symbol, dayMs);
  const kind = demoSymbol(symbol)?.kind ?? "equity";
  const rho = CORRELATION[kind];
  const common = marketShocks(seed, dayMs);
  const rng = rngFor(seed, "minute", symbol, dayMs);
  const vol = kind === "volatility_index" ? 0.9 : point.atmVol * 0.85;
  const sigma = (vol / Math.sqrt(252)) * Math.sqrt(INTRADAY_SHARE / SESSION_MINUTES);
  const idio = Math.sqrt(1 - rho * rho);
  scratch[0] = 0;
  for (let m = 1; m <= n; m++) scratch[m] = scratch[m - 1] + sigma * (rho * common[m - 1] + idio * rng.fastNormal());
  const lo = Math.log(point.open);
  const drift = Math.log(point.close) - lo;
  const end = scratch[n];
  for (let m = 0; m <= n; m++) {
    const f = m / n;
    scratch[m] = lo + f * (drift - end) + scratch[m];
  }
  return scratch.subarray(0, n + 1);
}

/** Prices at minutes 0…n of the session (index 0 = open, n = sessionMinutes = close). */
export function minutePath(seed: number | string, symbol: string, dayMs: number): Float64Array {
  return cached(pathCache, `${seed}|${symbol}|${dayMs}`, () => logPath(seed, symbol, dayMs).map(Math.exp));
}

/** Open, high, low, close of a whole past session without keeping its path (history is generated once, in bulk). */
export function sessionOhlc(seed: number | string, symbol: string, dayMs: number): [number, number, number, number] {
  const cachedPath = pathCache.get(`${seed}|${symbol}|${dayMs}`);
  const p = cachedPath ?? logPath(seed, symbol, dayMs);
  let hi = p[0];
  let lo = p[0];
  const n = p.length - 1;
  for (let m = 1; m <= n; m++) {
    if (p[m] > hi) hi = p[m];
    else if (p[m] < lo) lo = p[m];
  }
  const conv = cachedPath ? (x: number) => x : Math.exp; // exp is monotone, so max(exp) = exp(max)
  return [conv(p[0]), conv(hi), conv(lo), conv(p[n])];
}

export const cents = (x: number) => Math.round(x * 100) / 100;

/** Spot at time t inside (or after) the session `dayMs`; before the open it is the open. */
export function spotAt(seed: number | string, symbol: string, dayMs: number, t: number): number {
  return minutePath(seed, symbol, dayMs)[sessionMinute(dayMs, t)];
}

function barOf(
  symbol: string,
  interval: Bar["interval"],
  ts: Date,
  path: Float64Array,
  from: number,
  to: number,
  volume: number,
): Bar {
  let high = path[from];
  let low = path[from];
  for (let m = from + 1; m <= to; m++) {
    if (path[m] > high) high = path[m];
    if (path[m] < low) low = path[m];
  }
  return {
    symbol,
    interval,
    ts,
    open: cents(path[from]),
    high: cents(high),
    low: cents(low),
    close: cents(path[to]),
    volume: Math.round(volume),
  };
}

/** The session's daily bar as of t (partial while the session runs); ts = the session date 00:00 UTC. */
export function dailyBarAt(seed: number | string, symbol: string, dayMs: number, t: number): Bar {
  if (t >= sessionClose(dayMs)) {
    const [open, high, low, close] = sessionOhlc(seed, symbol, dayMs);
    return {
      symbol,
      interval: "1d",
      ts: new Date(dayMs),
      open: cents(open),
      high: cents(high),
      low: cents(low),
      close: cents(close),
      volume: dailyPoint(seed, symbol, dayMs).volume,
    };
  }
  const path = minutePath(seed, symbol, dayMs);
  const m = Math.max(1, sessionMinute(dayMs, t));
  const volume = dailyPoint(seed, symbol, dayMs).volume * cumulativeVolumeShare(m, sessionMinutes(dayMs));
  return barOf(symbol, "1d", new Date(dayMs), path, 0, m, volume);
}

/** Five-minute bars of the session that have started by t; the last one is partial while it runs. */
export function fiveMinuteBars(seed: number | string, symbol: string, dayMs: number, t: number): Bar[] {
  const path = minutePath(seed, symbol, dayMs);
  const total = dailyPoint(seed, symbol, dayMs).volume;
  const now = sessionMinute(dayMs, t);
  const bars: Bar[] = [];
  for (let start = 0; start < now; start += 5) {
    const end = Math.min(start + 5, now);
    const minutes = sessionMinutes(dayMs);
    const volume = total * (cumulativeVolumeShare(end, minutes) - cumulativeVolumeShare(start, minutes));
    bars.push(barOf(symbol, "5m", new Date(sessionOpen(dayMs) + start * MINUTE_MS), path, start, end, volume));
  }
  return bars;
}
