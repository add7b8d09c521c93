/**
 * Demo option trade prints. Each symbol's prints arrive as an inhomogeneous Poisson process over the session
 * (busy open and close); each print's details come from its own stream, so any time window is reproducible.
 * Conditions: "AUTO" single electronic print, "ISOI" leg of an intermarket sweep (same contract, several exchanges,
 * under one second), "BLOCK" a negotiated block of 100 contracts or more.
 */
import type { OptionTrade } from "../../analytics/types";
import { BoundedMemo } from "../../util/bounded-memo";
import {
  DAY_MS,
  MINUTE_MS,
  SESSION_MINUTES,
  cumulativeVolumeShare,
  isoDate,
  isWeekday,
  dayStart,
  sessionClose,
  sessionMinutes,
  sessionOpen,
} from "./calendar";
import { rngFor, type Rng } from "./prng";
import { cents } from "./intraday";
import { expiryQuoter, hasOptions, putTilt, quoteContract } from "./chain";
import { marketDay } from "./paths";
import { listExpiries, strikeGrid, surfaceContext } from "./surface";
import { nextEarnings, selectUniverse, type DemoSymbol } from "./universe";

export const EXCHANGES = [
  "CBOE",
  "ISE",
  "PHLX",
  "AMEX",
  "ARCA",
  "BOX",
  "MIAX",
  "NOM",
  "BZX",
  "C2",
  "EDGX",
  "GEMX",
  "MPRL",
] as const;
const SWEEP_WINDOW_MS = 900;

const timesCache = new BoundedMemo<string, number[]>(2000);

/** Arrival times (ms) of a symbol's trade events in a session (memoised: a ticker asks for the same day every few seconds). */
export function eventTimes(seed: number | string, sym: DemoSymbol, dayMs: number): number[] {
  const key = `${seed}|${sym.symbol}|${dayMs}`;
  return timesCache.get(key, () => arrivals(seed, sym, dayMs));
}

function arrivals(seed: number | string, sym: DemoSymbol, dayMs: number): number[] {
  if (!hasOptions(sym)) return [];
  const rng = rngFor(seed, "arrivals", sym.symbol, dayMs);
  const earningsSoon = (nextEarnings(sym, dayMs) ?? Infinity) - dayMs <= 7 * DAY_MS;
  const mean =
    60 * sym.optionActivity * (marketDay(seed, dayMs).regime === "stressed" ? 1.4 : 1) * (earningsSoon ? 1.5 : 1);
  const n = rng.poisson(mean);
  const shares: number[] = [];
  for (let i = 0; i < n; i++) shares.push(rng.next());
  shares.sort((a, b) => a - b);
  const span = sessionMinutes(dayMs) * MINUTE_MS - SWEEP_WINDOW_MS - 1;
  return shares.map((s) => sessionOpen(dayMs) + Math.floor(invertShare(s) * span));
}

/** Session fraction at which the U-shaped cumulative intensity reaches `share` (bisection). */
function invertShare(share: number): number {
  let lo = 0;
  let hi = 1;
  for (let k = 0; k < 30; k++) {
    const mid = (lo + hi) / 2;
    if (cumulativeVolumeShare(mid * SESSION_MINUTES) < share) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function printPrice(rng: Rng, bid: number, ask: number, buy: boolean): number {
  const r = rng.next();
  const tick = Math.max(0.01, cents(0.01 * rng.int(1, 3)));
  let p: number;
  if (r < 0.06)
    p = buy ? ask + tick : bid - tick; // through the quote
  else if (r < 0.42) p = buy ? ask : bid;
  else if (r < 0.52) p = (bid + ask) / 2;
  else p = bid + (buy ? 0.5 + 0.5 * rng.next() : 0.5 * rng.next()) * (ask - bid);
  return Math.max(0.01, cents(p));
}

function eventTrades(seed: number | string, sym: DemoSymbol, dayMs: number, seq: number, ts: number): OptionTrade[] {
  const rng = rngFor(seed, "trade", sym.symbol, dayMs, seq);
  const minute = ts - ((ts - sessionOpen(dayMs)) % MINUTE_MS);
  const ctx = surfaceContext(seed, sym, minute);
  const expiries = listExpiries(minute);
  const kind = rng.next();
  const sweep = kind < 0.05;
  const block = !sweep && kind < 0.08;
  let pickW = rng.next() * expiries.reduce((s, _e, i) => s + 1 / (1 + 0.6 * i), 0);
  let ei = 0;
  for (;;) {
    if (ei >= expiries.length - 1) break;
    pickW -= 1 / (1 + 0.6 * ei);
    if (!(pickW > 0)) break;
    ei++;
  }
  const expiry = expiries[ei];
  const tilt = putTilt(ctx);
  const right = rng.next() < 1 / (1 + tilt) ? "C" : "P";
  const years = Math.max((expiry.closeMs - minute) / (365 * DAY_MS), 1 / 365);
  const z = rng.normal() * (sweep ? 1.1 : 0.8) + (sweep ? (right === "C" ? 0.4 : -0.4) : 0); // sweeps lean out of the money
  const target = ctx.spot * Math.exp(z * ctx.atmShort * Math.sqrt(years));
  const strike = strikeGrid(ctx.refPrice).reduce((best, k) =>
    Math.abs(k - target) < Math.abs(best - target) ? k : best,
  );
  const q = quoteContract(expiryQuoter(ctx, expiry, tilt), strike, right);
  const buy = rng.next() < (sweep ? 0.8 : 0.5);
  const base = { symbol: sym.symbol, expiry: expiry.date, strike, right, bid: q.bid, ask: q.ask } as const;
  const id = (leg: number) => `${sym.symbol}-${isoDate(dayMs).replaceAll("-", "")}-${seq}-${leg}`;
  if (sweep) {
    const venues = shuffled(rng, EXCHANGES).slice(0, rng.int(2, 5));
    let at = ts;
    return venues.map((exchange, leg) => {
      if (leg > 0) at += rng.int(1, Math.floor(SWEEP_WINDOW_MS / venues.length));
      const price = cents(Math.max(0.01, buy ? q.ask + 0.01 * leg : q.bid - 0.01 * leg));
      return {
        ...base,
        tradeId: id(leg),
        ts: new Date(at),
        price,
        size: Math.min(2000, rng.pareto(5, 1.3)),
        exchange,
        condition: "ISOI",
      };
    });
  }
  const size = block ? Math.min(25_000, rng.pareto(100, 1.5)) : Math.min(499, rng.pareto(1, 1.2));
  const price = printPrice(rng, q.bid, q.ask, buy);
  return [
    {
      ...base,
      tradeId: id(0),
      ts: new Date(ts),
      price,
      size,
      exchange: rng.pick(EXCHANGES),
      condition: block ? "BLOCK" : "AUTO",
    },
  ];
}

/** Trades with from < ts ≤ to, ordered by time then id. */
export function generateTradesBetween(
  seed: number | string,
  from: Date | number,
  to: Date | number,
  symbols?: readonly string[],
): OptionTrade[] {
  const lo = +from;
  const hi = +to;
  const out: OptionTrade[] = [];
  for (let day = dayStart(lo); day <= hi; day += DAY_MS) {
    if (!isWeekday(day) || sessionClose(day) <= lo || sessionOpen(day) > hi) continue;
    for (const sym of selectUniverse(symbols)) {
      const times = eventTimes(seed, sym, day);
      for (let seq = 0; seq < times.length; seq++) {
        if (times[seq] + SWEEP_WINDOW_MS <= lo || times[seq] > hi) continue;
        for (const tr of eventTrades(seed, sym, day, seq, times[seq])) if (+tr.ts > lo && +tr.ts <= hi) out.push(tr);
      }
    }
  }
  return out.sort((a, b) => +a.ts - +b.ts || (a.tradeId < b.tradeId ? -1 : a.tradeId > b.tradeId ? 1 : 0));
}
