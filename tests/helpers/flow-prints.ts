/** Option prints for the flow tests: one AAPL 200 call print at T0 + `ms`, any field overridden. */
import type { OptionTrade } from "../../lib/analytics/types";

export const T0 = Date.parse("2026-11-20T15:00:00.000Z");

/** A print maker whose trade ids are `<prefix><n>`, numbered from 1 per maker. */
export function printMaker(prefix: string): (p: Partial<OptionTrade> & { ms: number }) => OptionTrade {
  let seq = 0;
  return ({ ms, ...rest }) => ({
    tradeId: `${prefix}${++seq}`,
    symbol: "AAPL",
    ts: new Date(T0 + ms),
    expiry: "2026-12-18",
    strike: 200,
    right: "C",
    price: 2.5,
    size: 10,
    exchange: "CBOE",
    condition: "AUTO",
    bid: 2.4,
    ask: 2.5,
    ...rest,
  });
}
