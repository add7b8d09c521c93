/** The `chain` CSV layout is documented in ../formats.ts (served in the API reference). */
import type { OptionQuote } from "../../../analytics/types";
import {
  CellReader,
  parseCount,
  parseIsoDate,
  parseNumber,
  parseOptionalNumber,
  parseRight,
  parseSymbol,
  parseTimestamp,
} from "../cells";
import { RowChecker } from "../checks";
import type { Cells, KindSpec } from "../types";

export const chainSpec: KindSpec<OptionQuote> = {
  kind: "chain",
  required: ["symbol", "as_of", "expiry", "strike", "right", "bid", "ask", "last", "volume", "open_interest"],
  optional: [],

  parse(cells: Cells) {
    const r = new CellReader(cells);
    const row = {
      symbol: r.read("symbol", parseSymbol),
      asOf: r.read("as_of", parseTimestamp),
      expiry: r.read("expiry", parseIsoDate),
      strike: r.read("strike", parseNumber),
      right: r.read("right", parseRight),
      bid: r.read("bid", parseNumber),
      ask: r.read("ask", parseNumber),
      last: r.read("last", parseOptionalNumber),
      volume: r.read("volume", parseCount),
      openInterest: r.read("open_interest", parseCount),
    };
    if (r.errors.length) return { rows: [], errors: r.errors };
    const errors = chainSpec.check(row as OptionQuote, cells);
    return errors.length ? { rows: [], errors } : { rows: [row as OptionQuote], errors };
  },

  check(row, cells) {
    const c = new RowChecker(cells);
    c.symbol("symbol", row.symbol);
    c.instant("as_of", row.asOf);
    c.isoDate("expiry", row.expiry);
    c.notExpired(row.expiry, row.asOf, "as_of");
    c.number("strike", row.strike, { positive: true });
    c.oneOf("right", row.right, ["C", "P"] as const);
    c.quote(row.bid, row.ask);
    if (row.last !== null) c.number("last", row.last, { nonNegative: true });
    c.count("volume", row.volume);
    c.count("open_interest", row.openInterest);
    return c.errors;
  },

  key: (row) => `${row.symbol}|${row.asOf.getTime()}|${row.expiry}|${row.strike}|${row.right}`,
  describeKey: (row) => `contract ${row.symbol} ${row.expiry} ${row.strike} ${row.right} at ${row.asOf.toISOString()}`,
  symbol: (row) => row.symbol,
  time: (row) => row.asOf,
};
