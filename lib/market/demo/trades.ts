/**
 * Demo option trade prints. Each symbol's prints arrive as an inhomogeneous Poisson process over the session
 * (busy open and close); each print's details come from its own stream, so any time window is reproducible.
 * Conditions: "AUTO" single electronic print, "ISOI" leg of an intermarket sweep (same contract, several exchanges,
 * under one second), "BLOCK" a negotiated block of 100 contracts or more.
 * In the night session (./clock.ts) one event prints per 20 s slot on a symbol drawn by option activity, and it is a
 * sweep or a block big enough to be a flow event, so a stream of flow events never waits a minute.
 */
import type { OptionTrade } from "../../analytics/types";
import { BoundedMemo } from "../../util/bounded-memo";
import {
  DAY_MS,
  MINUTE_MS,
  SESSION_MINUTES,
  cumulativeVolumeShare,
  currentSession,
  isoDate,
  nextSession,
  sessionClose,
  sessionMinutes,
  sessionOpen,
} from "./calendar";
import { nightOf } from "./clock";
import { NIGHT_SLOT_MS, nightSlotRange, nightSlotStart } from "./night";
import { rngFor, type Rng } from "./prng";
import { cents } from "./intraday";
import { expiryQuoter, hasOptions, putTilt, quoteContract } from "./chain";
import { marketDay } from "./paths";
import { listExpiries, strikeGrid, surfaceContext } from "./surface";
import { DEMO_UNIVERSE, nextEarnings, selectUniverse, type DemoSymbol } from "./universe";

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

/** What an event prints: sweeps below `sweep`, blocks below `block` (of one draw); premium floors (USD) at night. */
interface PrintMix {
  sweep: number;
  block: number;
  minBlockPremium: number;
  minLegPremium: number;
}
const SESSION_MIX: PrintMix = { sweep: 0.05, block: 0.08, minBlockPremium: 0, minLegPremium: 0 };
/** Above the flow rules' floors (a block 5,000 USD; a sweep 2,500 USD over at least two legs). */
const NIGHT_MIX: PrintMix = { sweep: 0.5, block: 1, minBlockPremium: 6_000, minLegPremium: 1_500 };

/** Contracts that make at least `premium` USD at `price` (none when there is no floor). */
const atLeast = (premium: number, price: number) => (premium > 0 ? Math.ceil(premium / (price * 100)) : 0);

function eventTrades(
  seed: number | string,
  sym: DemoSymbol,
  rng: Rng,
  ts: number,
  id: (leg: number) => string,
  mix: PrintMix = SESSION_MIX,
): OptionTrade[] {
  const minute = ts - (ts % MINUTE_MS);
  const ctx = surfaceContext(seed, sym, minute);
  const expiries = listExpiries(minute);
  const kind = rng.next();
  const sweep = kind < mix.sweep;
  const block = !sweep && kind < mix.block;
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
        size: Math.max(Math.min(2000, rng.pareto(5, 1.3)), atLeast(mix.minLegPremium, price)),
        exchange,
        condition: "ISOI",
      };
    });
  }
  const size = block ? Math.min(25_000, rng.pareto(100, 1.5)) : Math.min(499, rng.pareto(1, 1.2));
  const price = printPrice(rng, q.bid, q.ask, buy);
  const blockSize = block ? Math.min(25_000, Math.max(size, atLeast(mix.minBlockPremium, price))) : size;
  return [
    {
      ...base,
      tradeId: id(0),
      ts: new Date(ts),
      price,
      size: blockSize,
      exchange: rng.pick(EXCHANGES),
      condition: block ? "BLOCK" : "AUTO",
    },
  ];
}

/** Trades with from < ts ≤ to, ordered by time then id: the sessions' prints and the nights' between them. */
export function generateTradesBetween(
  seed: number | string,
  from: Date | number,
  to: Date | number,
  symbols?: readonly string[],
): OptionTrade[] {
  const lo = +from;
  const hi = +to;
  const out: OptionTrade[] = [];
  const universe = selectUniverse(symbols);
  const keep = (tr: OptionTrade) => {
    if (+tr.ts > lo && +tr.ts <= hi) out.push(tr);
  };
  for (let day = currentSession(lo); day <= hi; day = nextSession(day)) {
    if (sessionClose(day) > lo && sessionOpen(day) <= hi) sessionTrades(seed, universe, day, lo, hi, keep);
    const night = nightOf(day);
    if (night.end > lo && night.start < hi) nightTrades(seed, new Set(universe), day, lo, hi, keep);
  }
  return out.sort((a, b) => +a.ts - +b.ts || (a.tradeId < b.tradeId ? -1 : a.tradeId > b.tradeId ? 1 : 0));
}

const compactDate = (day: number) => isoDate(day).replaceAll("-", "");

function sessionTrades(
  seed: number | string,
  universe: readonly DemoSymbol[],
  day: number,
  lo: number,
  hi: number,
  keep: (tr: OptionTrade) => void,
): void {
  for (const sym of universe) {
    const times = eventTimes(seed, sym, day);
    for (let seq = 0; seq < times.length; seq++) {
      if (times[seq] + SWEEP_WINDOW_MS <= lo || times[seq] > hi) continue;
      const id = (leg: number) => `${sym.symbol}-${compactDate(day)}-${seq}-${leg}`;
      for (const tr of eventTrades(seed, sym, rngFor(seed, "trade", sym.symbol, day, seq), times[seq], id)) keep(tr);
    }
  }
}

/** Symbols with options, and the running sum of their option activity: the night draws its symbols from it. */
const OPTIONABLE = DEMO_UNIVERSE.filter(hasOptions);
const ACTIVITY_SUMS = OPTIONABLE.reduce<number[]>((acc, s) => [...acc, (acc.at(-1) ?? 0) + s.optionActivity], []);

function nightSymbol(rng: Rng): DemoSymbol {
  const x = rng.next() * (ACTIVITY_SUMS.at(-1) ?? 0);
  const i = ACTIVITY_SUMS.findIndex((sum) => x < sum);
  return OPTIONABLE[i < 0 ? OPTIONABLE.length - 1 : i];
}

/** The night after `day`: slot k's event on a symbol drawn over the whole universe, kept when `wanted` lists it. */
function nightTrades(
  seed: number | string,
  wanted: ReadonlySet<DemoSymbol>,
  day: number,
  lo: number,
  hi: number,
  keep: (tr: OptionTrade) => void,
): void {
  const [first, last] = nightSlotRange(day, lo, hi);
  for (let k = first; k <= last; k++) {
    const rng = rngFor(seed, "night-trade", day, k);
    const ts = nightSlotStart(day, k) + Math.floor((0.2 + 0.6 * rng.next()) * NIGHT_SLOT_MS);
    const sym = nightSymbol(rng);
    if (!wanted.has(sym) || ts + SWEEP_WINDOW_MS <= lo || ts > hi) continue;
    const id = (leg: number) => `${sym.symbol}-${compactDate(day)}-N${k}-${leg}`;
    for (const tr of eventTrades(seed, sym, rng, ts, id, NIGHT_MIX)) keep(tr);
  }
}
