/** Inputs of computeSymbolMetrics that the analytics tests hold fixed: flat daily bars and no option flow. */
import type { Bar, OptionQuote } from "../../lib/analytics/types";

/** `count` daily bars of `symbol` closing at `spot` every day, the last on `lastDay` (UTC midnight). */
export function flatDailyBars(symbol: string, spot: number, lastDay: Date, count = 60): Bar[] {
  return Array.from({ length: count }, (_, i) => ({
    symbol,
    interval: "1d",
    ts: new Date(lastDay.getTime() - (count - 1 - i) * 86_400_000),
    open: spot,
    high: spot,
    low: spot,
    close: spot,
    volume: 1e6,
  }));
}

const FLOW_FIELDS = [
  "bullishPremium",
  "bearishPremium",
  "netPremium",
  "sweepCount",
  "blockCount",
  "unusualCount",
] as const;
export const NO_FLOW = Object.fromEntries(FLOW_FIELDS.map((k) => [k, 0])) as Record<
  (typeof FLOW_FIELDS)[number],
  number
>;

/** One option quote with the given bid and ask (10 traded, open interest 100). */
export function quoteAt(
  symbol: string,
  asOf: Date,
  contract: Pick<OptionQuote, "expiry" | "strike" | "right">,
  bid: number,
  ask: number,
): OptionQuote {
  return { symbol, asOf, ...contract, bid, ask, last: null, volume: 10, openInterest: 100 };
}
