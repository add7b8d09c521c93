/**
 * Options-flow events derived from trade prints: sweeps, blocks and unusual-volume prints.
 * Output carries derived analytics only: no trade id, exchange code or sale condition leaves this module
 * (event ids are a hash of the constituent trade ids; exchanges appear only as a count).
 */
import { createHash } from "node:crypto";
import type { OptionRight } from "./bsm";
import type { OptionTrade } from "./types";
import { round } from "./round";
import { newYorkDate } from "./exchange-calendar";
import { conditionFlags, type ConditionFlags } from "./trade-conditions";

export const CONTRACT_MULTIPLIER = 100;

export type FlowEventType = "sweep" | "block" | "unusual";
/** Where the print sat against the quote in force: at/above ask, between mid and ask, at mid, between bid and mid, at/below bid. */
export type FlowSide = "ask" | "ask_side" | "mid" | "bid_side" | "bid" | "unknown";
export const FLOW_SIDES = ["ask", "ask_side", "mid", "bid_side", "bid", "unknown"] as const;
export type FlowSentiment = "bullish" | "bearish" | "neutral";

export interface FlowContractRef {
  symbol: string;
  expiry: string;
  strike: number;
  right: OptionRight;
}

export interface FlowEvent {
  id: string;
  symbol: string;
  time: string; // ISO 8601 with milliseconds, UTC
  type: FlowEventType;
  contract: { expiry: string; strike: number; right: "call" | "put" };
  size: number;
  avgPrice: number;
  premium: number;
  side: FlowSide;
  sentiment: FlowSentiment;
  exchangeCount: number;
  legs: number;
  unusual: boolean;
  volumeOiRatio: number | null;
  /** itm / atm / otm against the underlying's spot when the events were built; null without a spot. */
  moneyness?: FlowMoneyness | null;
}

export type FlowMoneyness = "itm" | "atm" | "otm";
export const FLOW_MONEYNESS = ["itm", "atm", "otm"] as const;
/** A strike within this fraction of spot is at the money for the flow moneyness filter. */
export const FLOW_ATM_BAND = 0.025;

/** itm / atm / otm of a contract against spot (atm within ±FLOW_ATM_BAND of spot). */
export function flowMoneyness(strike: number, right: OptionRight, spot: number): FlowMoneyness | null {
  if (!(spot > 0) || !Number.isFinite(strike)) return null;
  if (Math.abs(strike / spot - 1) <= FLOW_ATM_BAND) return "atm";
  return (right === "C" ? spot > strike : strike > spot) ? "itm" : "otm";
}

export interface FlowOptions {
  /** The underlying's spot, for each event's moneyness. */
  spot?: number;
  sweepWindowMs?: number;
  blockMinContracts?: number;
  blockMinPremium?: number;
}

export const FLOW_DEFAULTS = { sweepWindowMs: 1000, blockMinContracts: 100, blockMinPremium: 100_000 } as const;
/** A contract's day is unusual only once its volume reaches this many contracts: a handful of 1-lots on a thin line is noise. */
export const UNUSUAL_MIN_VOLUME = 100;
/** A sweep needs at least this many contracts and this premium (USD) over its legs: two 1-lots on two venues are not one. */
export const SWEEP_MIN_CONTRACTS = 10;
export const SWEEP_MIN_PREMIUM = 2_500;
/** A block by size also needs this premium (USD); a block by premium also needs this many contracts (100 lots at $0.01 are not a block). */
export const BLOCK_SIZE_MIN_PREMIUM = 5_000;
export const BLOCK_PREMIUM_MIN_CONTRACTS = 10;

export const definitions = {
  id: "Stable event identifier: first 16 hex characters of SHA-256 over the event's constituent trade identifiers (sorted). Not a trade id.",
  symbol: "Underlying symbol, upper-case.",
  time: "Time of the event's first print, ISO 8601 UTC with milliseconds.",
  type:
    `sweep: prints on one contract, same direction (bought: ask/ask_side; sold: bid/bid_side), all within sweepWindowMs (default 1000 ms) of the first, on at least 2 distinct exchanges, together at least ${SWEEP_MIN_CONTRACTS} contracts and ${SWEEP_MIN_PREMIUM} USD of premium; multi-leg, late, out-of-sequence and auction prints never join one (see conditions). ` +
    `block: a single print (not part of a sweep, not multi-leg) of size >= blockMinContracts (default 100) with premium >= ${BLOCK_SIZE_MIN_PREMIUM} USD, or of premium >= blockMinPremium (default 100,000 USD) with size >= ${BLOCK_PREMIUM_MIN_CONTRACTS} contracts. ` +
    `unusual: one event per contract per New York trading day, at the print (not part of a sweep or block) where the contract's cumulative volume that day first exceeds its open interest with at least ${UNUSUAL_MIN_VOLUME} contracts traded. Other prints produce no event.`,
  "contract.expiry": "Option expiry date, YYYY-MM-DD.",
  "contract.strike": "Strike price, USD per share.",
  "contract.right": "call or put.",
  size: "Contracts traded in the event (sum over its prints).",
  avgPrice: "Size-weighted average print price, USD per share: sum(price x size) / sum(size), rounded to 4 decimals.",
  premium: "Premium traded, USD: sum(price x size x 100), rounded to cents.",
  side:
    "Where the print sat against the quote in force at the print: a locked quote (bid = ask > 0) -> mid; price >= ask -> ask; price <= bid -> bid; otherwise above mid -> ask_side, below mid -> bid_side, equal to mid -> mid. " +
    "Multi-leg, late and out-of-sequence prints (see conditions) -> unknown: their price or timing says nothing about one leg's side. " +
    "unknown when the quote is missing or unusable: bid or ask not a finite number, bid < 0, ask <= 0 (including bid = ask = 0) or a crossed quote (bid > ask). " +
    "A sweep takes its legs' side when all agree, otherwise ask_side (bought) or bid_side (sold).",
  sentiment:
    "Directional reading of the trade: bought calls (ask, ask_side) and sold puts (bid, bid_side) -> bullish; bought puts and sold calls -> bearish; mid and unknown -> neutral.",
  exchangeCount: "Number of distinct exchanges the event's prints executed on (1 for a single print).",
  legs: "Number of prints aggregated into the event (1 for blocks and unusual prints).",
  unusual: `true when the contract's cumulative volume that New York trading day from the session open (sizes of all its prints that day at or before the event's last print, inclusive; the engine reads whole New York days of prints, at least the last 24 h) exceeds its open interest and is at least ${UNUSUAL_MIN_VOLUME} contracts; open interest 0 counts as exceeded; unknown open interest -> false.`,
  volumeOiRatio:
    "Cumulative same-day contract volume (as in `unusual`) / open interest, rounded to 4 decimals; null when open interest is unknown or 0.",
} as const;

const EPS = 1e-9;

export function classifySide(price: number, bid: number, ask: number): FlowSide {
  // No quote, a zero quote or a crossed one says nothing about who initiated the print.
  if (!Number.isFinite(price) || !Number.isFinite(bid) || !Number.isFinite(ask) || bid < 0 || !(ask > 0) || bid > ask)
    return "unknown";
  // A locked market (bid = ask) has no side to lean on: whoever printed there paid the only price quoted.
  if (Math.abs(ask - bid) <= EPS) return "mid";
  if (price >= ask - EPS) return "ask";
  if (price <= bid + EPS) return "bid";
  const mid = (bid + ask) / 2;
  if (Math.abs(price - mid) <= EPS) return "mid";
  return price > mid ? "ask_side" : "bid_side";
}

/** Bought (ask, ask_side) calls are bullish, bought puts bearish; sold (bid, bid_side) the inverse; mid neutral. */
export function sentimentOf(side: FlowSide, right: OptionRight): FlowSentiment {
  if (side === "mid" || side === "unknown") return "neutral";
  const bought = side === "ask" || side === "ask_side";
  return bought === (right === "C") ? "bullish" : "bearish";
}

const contractKey = (t: FlowContractRef) => `${t.symbol.toUpperCase()}|${t.expiry}|${t.strike}|${t.right}`;
const tradingDate = (d: Date) => newYorkDate(d);
const direction = (s: FlowSide): "buy" | "sell" | null =>
  s === "ask" || s === "ask_side" ? "buy" : s === "bid" || s === "bid_side" ? "sell" : null;
const byTime = (a: OptionTrade, b: OptionTrade) =>
  a.ts.getTime() - b.ts.getTime() || (a.tradeId < b.tradeId ? -1 : a.tradeId > b.tradeId ? 1 : 0);

export function eventId(tradeIds: string[]): string {
  return createHash("sha256")
    .update([...tradeIds].sort().join("\u0000"))
    .digest("hex")
    .slice(0, 16);
}

/**
 * Cumulative same-New-York-day volume of a print's contract at the print's time (all prints with ts <= the print's ts).
 * Keyed by trade object.
 */
function cumulativeVolumes(trades: OptionTrade[]): Map<OptionTrade, number> {
  const groups = new Map<string, OptionTrade[]>();
  for (const t of trades) {
    const k = `${contractKey(t)}|${tradingDate(t.ts)}`;
    const g = groups.get(k);
    if (g) g.push(t);
    else groups.set(k, [t]);
  }
  const out = new Map<OptionTrade, number>();
  for (const g of groups.values()) {
    g.sort(byTime);
    let cum = 0;
    for (let i = 0; i < g.length; ) {
      let j = i;
      while (j < g.length && g[j].ts.getTime() === g[i].ts.getTime()) cum += g[j++].size;
      for (let k = i; k < j; k++) out.set(g[k], cum);
      i = j;
    }
  }
  return out;
}

/** Splits time-sorted prints of one contract and direction into clusters anchored at their first print. */
function clusters(prints: OptionTrade[], windowMs: number): OptionTrade[][] {
  const out: OptionTrade[][] = [];
  let cur: OptionTrade[] = [];
  for (const p of prints) {
    if (cur.length > 0 && p.ts.getTime() - cur[0].ts.getTime() <= windowMs) cur.push(p);
    else {
      if (cur.length > 0) out.push(cur);
      cur = [p];
    }
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

/** Multi-leg prints count toward day volume only; late ones have no side; neither (nor auctions) join a sweep. */
const hasNoSide = (f: ConditionFlags | undefined) => f?.multiLeg === true || f?.late === true;
const joinsNoSweep = (f: ConditionFlags | undefined) => hasNoSide(f) || f?.auction === true;

/** The valid prints in time order and what the flow rules read of each. */
interface Prints {
  valid: OptionTrade[];
  flags: Map<OptionTrade, ConditionFlags>;
  sideOf: (t: OptionTrade) => FlowSide;
  /** Cumulative same-day volume of the print's contract at the print (cumulativeVolumes). */
  cumVol: Map<OptionTrade, number>;
}

/** Prints with a positive finite size and price, not cancelled, time-ordered, with their sides and day volumes. */
function readPrints(trades: OptionTrade[]): Prints {
  const flags = new Map(trades.map((t) => [t, conditionFlags(t.condition)]));
  const valid = trades
    .filter((t) => t.size > 0 && Number.isFinite(t.size) && t.price > 0 && Number.isFinite(t.price))
    .filter((t) => !flags.get(t)?.cancelled)
    .sort(byTime);
  const sides = new Map<OptionTrade, FlowSide>(
    valid.map((t) => [t, hasNoSide(flags.get(t)) ? "unknown" : classifySide(t.price, t.bid, t.ask)]),
  );
  return { valid, flags, sideOf: (t) => sides.get(t) ?? "unknown", cumVol: cumulativeVolumes(valid) };
}

/** The sweeps: clusters of one contract's same-direction prints on 2+ exchanges with enough contracts and premium. */
function findSweeps({ valid, flags, sideOf }: Prints, windowMs: number): OptionTrade[][] {
  const byContractDir = new Map<string, OptionTrade[]>();
  for (const t of valid) {
    if (joinsNoSweep(flags.get(t))) continue;
    const dir = direction(sideOf(t));
    if (!dir) continue;
    const k = `${contractKey(t)}|${dir}`;
    const g = byContractDir.get(k);
    if (g) g.push(t);
    else byContractDir.set(k, [t]);
  }
  const sweeps: OptionTrade[][] = [];
  for (const prints of byContractDir.values()) {
    for (const c of clusters(prints, windowMs)) {
      const contracts = c.reduce((s, p) => s + p.size, 0);
      const premium = c.reduce((s, p) => s + p.price * p.size, 0) * CONTRACT_MULTIPLIER;
      if (
        new Set(c.map((p) => p.exchange)).size >= 2 &&
        contracts >= SWEEP_MIN_CONTRACTS &&
        premium >= SWEEP_MIN_PREMIUM
      )
        sweeps.push(c);
    }
  }
  return sweeps;
}

/** The caller's open-interest lookup, asked once per contract. */
function memoOpenInterest(openInterest: (t: FlowContractRef) => number | null): (t: OptionTrade) => number | null {
  const cache = new Map<string, number | null>();
  return (t) => {
    const k = contractKey(t);
    if (!cache.has(k)) {
      cache.set(
        k,
        openInterest({ symbol: t.symbol.toUpperCase(), expiry: t.expiry, strike: t.strike, right: t.right }),
      );
    }
    return cache.get(k) ?? null;
  };
}

/** What turning candidates into events reads and keeps across them. */
interface EventRules {
  prints: Prints;
  oiOf: (t: OptionTrade) => number | null;
  blockMinContracts: number;
  blockMinPremium: number;
  spot: number | undefined;
  /** Contract-days that already carry an unusual event. */
  flaggedDays: Set<string>;
}

/** A sweep's side: its legs' when all agree, otherwise ask_side (bought) or bid_side (sold). */
function sweepSide(legSides: FlowSide[]): FlowSide {
  const side = legSides[0];
  return legSides.some((s) => s !== side) ? (direction(side) === "buy" ? "ask_side" : "bid_side") : side;
}

/** The event of a sweep or of a single print, or null when a single print is neither a block nor newly unusual. */
function flowEvent(legs: OptionTrade[], kind: "sweep" | "single", rules: EventRules): FlowEvent | null {
  const first = legs[0];
  const last = legs[legs.length - 1];
  const size = legs.reduce((s, p) => s + p.size, 0);
  const notional = legs.reduce((s, p) => s + p.price * p.size, 0);
  const premium = round(notional * CONTRACT_MULTIPLIER, 2);
  if (!Number.isFinite(premium)) return null; // an absurd price or size overflows: no event rather than Infinity
  const oi = rules.oiOf(first);
  const vol = rules.prints.cumVol.get(last) ?? size;
  const unusual = oi !== null && vol > oi && vol >= UNUSUAL_MIN_VOLUME;
  const isBlock =
    kind === "single" &&
    ((size >= rules.blockMinContracts && premium >= BLOCK_SIZE_MIN_PREMIUM) ||
      (premium >= rules.blockMinPremium && size >= BLOCK_PREMIUM_MIN_CONTRACTS));
  const day = `${contractKey(first)}|${tradingDate(last.ts)}`;
  if (kind === "single" && !isBlock && (!unusual || rules.flaggedDays.has(day))) return null;
  if (unusual) rules.flaggedDays.add(day);
  const side = sweepSide(legs.map(rules.prints.sideOf));
  return {
    id: eventId(legs.map((p) => p.tradeId)),
    symbol: first.symbol.toUpperCase(),
    time: first.ts.toISOString(),
    type: kind === "sweep" ? "sweep" : isBlock ? "block" : "unusual",
    contract: { expiry: first.expiry, strike: first.strike, right: first.right === "C" ? "call" : "put" },
    size,
    avgPrice: round(notional / size, 4),
    premium,
    side,
    sentiment: sentimentOf(side, first.right),
    exchangeCount: new Set(legs.map((p) => p.exchange)).size,
    legs: legs.length,
    unusual,
    volumeOiRatio: oi !== null && oi > 0 ? round(vol / oi, 4) : null,
    // Only with a spot, so events built without one keep their shape.
    ...(rules.spot === undefined ? {} : { moneyness: flowMoneyness(first.strike, first.right, rules.spot) }),
  };
}

/**
 * Builds flow events from trade prints (any order, any number of symbols). Returns events newest first
 * (ties by id). Prints with a non-positive or non-finite size or price are ignored.
 */
export function buildFlowEvents(
  trades: OptionTrade[],
  openInterest: (t: FlowContractRef) => number | null,
  opts: FlowOptions = {},
): FlowEvent[] {
  const prints = readPrints(trades);
  const sweeps = findSweeps(prints, opts.sweepWindowMs ?? FLOW_DEFAULTS.sweepWindowMs);
  const inSweep = new Set(sweeps.flat());
  const rules: EventRules = {
    prints,
    oiOf: memoOpenInterest(openInterest),
    blockMinContracts: opts.blockMinContracts ?? FLOW_DEFAULTS.blockMinContracts,
    blockMinPremium: opts.blockMinPremium ?? FLOW_DEFAULTS.blockMinPremium,
    spot: opts.spot,
    flaggedDays: new Set<string>(),
  };
  // In time order, so a contract-day's single unusual event is the print where it first crossed.
  const units: { legs: OptionTrade[]; kind: "sweep" | "single" }[] = [
    ...sweeps.map((legs) => ({ legs, kind: "sweep" as const })),
    ...prints.valid
      .filter((t) => !inSweep.has(t) && !prints.flags.get(t)?.multiLeg)
      .map((t) => ({ legs: [t], kind: "single" as const })),
  ].sort((a, b) => byTime(a.legs[a.legs.length - 1], b.legs[b.legs.length - 1]));
  const events: FlowEvent[] = [];
  for (const u of units) {
    const e = flowEvent(u.legs, u.kind, rules);
    if (e) events.push(e);
  }
  return events.sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
