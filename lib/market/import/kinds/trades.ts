/** The `trades` CSV layout is documented in ../formats.ts (served in the API reference). */
import type { OptionTrade } from "../../../analytics/types";
import {
  CellReader,
  parseCount,
  parseIsoDate,
  parseNumber,
  parseRight,
  parseSymbol,
  parseText,
  parseTimestamp,
} from "../cells";
import { RowChecker } from "../checks";
import type { Cells, KindSpec } from "../types";

const INT32_MAX = 2_147_483_647;

export const tradesSpec: KindSpec<OptionTrade> = {
  kind: "trades",
  required: [
    "trade_id",
    "symbol",
    "timestamp",
    "expiry",
    "strike",
    "right",
    "price",
    "size",
    "exchange",
    "condition",
    "bid",
    "ask",
  ],
  optional: [],

  parse(cells: Cells) {
    const r = new CellReader(cells);
    const row = {
      tradeId: r.read("trade_id", parseText),
      symbol: r.read("symbol", parseSymbol),
      ts: r.read("timestamp", parseTimestamp),
      expiry: r.read("expiry", parseIsoDate),
      strike: r.read("strike", parseNumber),
      right: r.read("right", parseRight),
      price: r.read("price", parseNumber),
      size: r.read("size", parseCount),
      exchange: r.read("exchange", parseText),
      condition: r.text("condition"),
      bid: r.read("bid", parseNumber),
      ask: r.read("ask", parseNumber),
    };
    if (r.errors.length) return { rows: [], errors: r.errors };
    const errors = tradesSpec.check(row as OptionTrade, cells);
    return errors.length ? { rows: [], errors } : { rows: [row as OptionTrade], errors };
  },

  check(row, cells) {
    const c = new RowChecker(cells);
    c.text("trade_id", row.tradeId);
    c.symbol("symbol", row.symbol);
    c.instant("timestamp", row.ts);
    c.isoDate("expiry", row.expiry);
    c.notExpired(row.expiry, row.ts, "trade");
    c.number("strike", row.strike, { positive: true });
    c.oneOf("right", row.right, ["C", "P"] as const);
    c.number("price", row.price, { positive: true });
    c.count("size", row.size, { positive: true, max: INT32_MAX });
    c.text("exchange", row.exchange);
    c.text("condition", row.condition, true);
    c.quote(row.bid, row.ask);
    return c.errors;
  },

  key: (row) => row.tradeId,
  describeKey: (row) => `trade_id ${row.tradeId}`,
  symbol: (row) => row.symbol,
  time: (row) => row.ts,
};
