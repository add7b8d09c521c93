/** The `dividends` CSV layout is documented in ../formats.ts (served in the API reference). */
import type { CashDividendRow } from "../../../analytics/types";
import { CellReader, parseIsoDate, parseNumber, parseSymbol } from "../cells";
import { RowChecker, utcMidnight } from "../checks";
import type { Cells, KindSpec } from "../types";

export const dividendsSpec: KindSpec<CashDividendRow> = {
  kind: "dividends",
  required: ["symbol", "ex_date", "amount"],
  optional: [],

  parse(cells: Cells) {
    const r = new CellReader(cells);
    const symbol = r.read("symbol", parseSymbol);
    const exDate = r.read("ex_date", parseIsoDate);
    const amount = r.read("amount", parseNumber);
    if (r.errors.length || symbol === undefined || exDate === undefined || amount === undefined)
      return { rows: [], errors: r.errors };
    const row: CashDividendRow = { symbol, exDate, amount };
    const errors = dividendsSpec.check(row, cells);
    return errors.length ? { rows: [], errors } : { rows: [row], errors };
  },

  check(row, cells) {
    const c = new RowChecker(cells);
    c.symbol("symbol", row.symbol);
    c.isoDate("ex_date", row.exDate);
    c.number("amount", row.amount, { positive: true, max: 10_000, hint: "cash per share, USD (0.25 = 25 cents)" });
    return c.errors;
  },

  key: (row) => `${row.symbol}|${row.exDate}`,
  describeKey: (row) => `dividend ${row.symbol} ex ${row.exDate}`,
  symbol: (row) => row.symbol,
  time: (row) => utcMidnight(row.exDate),
};
