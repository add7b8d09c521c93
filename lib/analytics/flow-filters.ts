/** Filtering and summarising of derived options-flow events (see ./flow). */
import type { FlowEvent, FlowEventType, FlowMoneyness, FlowSide } from "./flow";
import type { FlowSummary } from "./types";
import { round } from "./round";
import { newYorkDate } from "./exchange-calendar";

export const FLOW_LIMIT_DEFAULT = 50;
export const FLOW_LIMIT_MAX = 500;

export interface FlowFilter {
  symbol?: string;
  minPremium?: number;
  type?: FlowEventType;
  since?: Date;
  limit?: number;
  /** Only events with this side (ask, ask_side, mid, bid_side, bid, unknown). */
  side?: FlowSide;
  /** Only contracts expiring on or after / on or before these dates (YYYY-MM-DD). */
  expiryFrom?: string;
  expiryTo?: string;
  /** Only contracts this far in or out of the money against spot when the events were built. */
  moneyness?: FlowMoneyness;
}

export const definitions = {
  symbol: "Keep only events on this underlying (case-insensitive).",
  minPremium: "Keep only events with premium >= this value, USD.",
  type: "Keep only events of this type (sweep, block or unusual); matches the event's `type`, not its `unusual` flag.",
  since: "Keep only events whose time is at or after this instant.",
  side: "Keep only events with this side (ask, ask_side, mid, bid_side, bid or unknown; see side).",
  expiryFrom: "Keep only events on contracts expiring on or after this date (YYYY-MM-DD).",
  expiryTo: "Keep only events on contracts expiring on or before this date (YYYY-MM-DD).",
  moneyness:
    "Keep only events on contracts in (itm), at (atm: strike within ±2.5 % of spot) or out of (otm) the money against the underlying's spot when the events were built.",
  limit: `Maximum number of events returned, newest first; default ${FLOW_LIMIT_DEFAULT}, values above ${FLOW_LIMIT_MAX} are capped at ${FLOW_LIMIT_MAX}, below 1 raised to 1.`,
  bullishPremium: "Sum of premium of events with sentiment bullish, USD, rounded to cents.",
  bearishPremium: "Sum of premium of events with sentiment bearish, USD, rounded to cents.",
  netPremium: "bullishPremium - bearishPremium, USD, rounded to cents. Neutral (mid) events count in neither.",
  sweepCount: "Number of events of type sweep.",
  blockCount: "Number of events of type block.",
  unusualCount:
    "Number of distinct contracts (per New York trading day) with at least one event flagged unusual: contracts, not prints.",
} as const;

const newestFirst = (a: FlowEvent, b: FlowEvent) =>
  a.time < b.time ? 1 : a.time > b.time ? -1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

export function clampFlowLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return FLOW_LIMIT_DEFAULT;
  return Math.min(FLOW_LIMIT_MAX, Math.max(1, Math.floor(limit)));
}

/** Applies the filters, then sorts newest first (ties by id) and truncates to the limit. Does not mutate the input. */
export function filterFlowEvents(events: FlowEvent[], f: FlowFilter = {}): FlowEvent[] {
  const symbol = f.symbol?.toUpperCase();
  const sinceMs = f.since?.getTime();
  return events
    .filter(
      (e) =>
        (symbol === undefined || e.symbol.toUpperCase() === symbol) &&
        (f.minPremium === undefined || e.premium >= f.minPremium) &&
        (f.type === undefined || e.type === f.type) &&
        (sinceMs === undefined || Date.parse(e.time) >= sinceMs) &&
        (f.side === undefined || e.side === f.side) &&
        (f.expiryFrom === undefined || e.contract.expiry >= f.expiryFrom) &&
        (f.expiryTo === undefined || e.contract.expiry <= f.expiryTo) &&
        (f.moneyness === undefined || e.moneyness === f.moneyness),
    )
    .sort(newestFirst)
    .slice(0, clampFlowLimit(f.limit));
}

export function summarizeFlow(events: FlowEvent[]): FlowSummary {
  let bullish = 0;
  let bearish = 0;
  let sweepCount = 0;
  let blockCount = 0;
  const unusualContracts = new Set<string>();
  for (const e of events) {
    if (e.sentiment === "bullish") bullish += e.premium;
    else if (e.sentiment === "bearish") bearish += e.premium;
    if (e.type === "sweep") sweepCount++;
    if (e.type === "block") blockCount++;
    if (e.unusual)
      unusualContracts.add(
        `${e.symbol}|${e.contract.expiry}|${e.contract.strike}|${e.contract.right}|${newYorkDate(new Date(e.time))}`,
      );
  }
  const cents = (x: number) => round(x, 2);
  return {
    bullishPremium: cents(bullish),
    bearishPremium: cents(bearish),
    netPremium: cents(bullish - bearish),
    sweepCount,
    blockCount,
    unusualCount: unusualContracts.size,
  };
}
