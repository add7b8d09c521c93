/** The `instruments` CSV layout is documented in ../formats.ts (served in the API reference). */
import type { Instrument } from "../../../analytics/types";
import { CellReader, parseNumber, parseOptionalIsoDate, parseSymbol, parseText } from "../cells";
import { RowChecker } from "../checks";
import type { Cells, KindSpec } from "../types";

const KINDS = ["equity", "etf", "index", "volatility_index"] as const;

export const instrumentsSpec: KindSpec<Instrument> = {
  kind: "instruments",
  required: ["symbol", "name", "sector", "kind", "next_earnings_date", "dividend_yield"],
  optional: [],

  parse(cells: Cells) {
    const r = new CellReader(cells);
    const symbol = r.read("symbol", parseSymbol);
    const name = r.read("name", parseText);
    const sector = r.read("sector", parseText);
    const kind = r.read("kind", (s) => s.toLowerCase()) as Instrument["kind"];
    const nextEarningsDate = r.read("next_earnings_date", parseOptionalIsoDate);
    const dividendYield = r.read("dividend_yield", (s, c) => (s === "" ? 0 : parseNumber(s, c)));
    if (r.errors.length) return { rows: [], errors: r.errors };
    const row: Instrument = {
      symbol: symbol!,
      name: name!,
      sector: sector!,
      kind,
      nextEarningsDate: nextEarningsDate!,
      dividendYield: dividendYield!,
    };
    const errors = instrumentsSpec.check(row, cells);
    return errors.length ? { rows: [], errors } : { rows: [row], errors };
  },

  check(row, cells) {
    const c = new RowChecker(cells);
    c.symbol("symbol", row.symbol);
    c.text("name", row.name);
    c.text("sector", row.sector);
    const kindOk = c.oneOf("kind", row.kind, KINDS);
    if (row.nextEarningsDate !== null) {
      if (c.isoDate("next_earnings_date", row.nextEarningsDate) && kindOk && row.kind !== "equity") {
        c.fail(`next_earnings_date must be blank for kind ${row.kind}`);
      }
    }
    c.number("dividend_yield", row.dividendYield, {
      min: 0,
      max: 0.5,
      hint: "a decimal: 0.015 = 1.5 %",
    });
    return c.errors;
  },

  key: (row) => row.symbol,
  describeKey: (row) => `symbol ${row.symbol}`,
  time: () => null,
};
