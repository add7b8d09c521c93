/** The `instruments` CSV layout is documented in ../formats.ts (served in the API reference). */
import { EARNINGS_TIMINGS, type Instrument } from "../../../analytics/types";
import { CellReader, parseNumber, parseOptionalIsoDate, parseSymbol, parseText } from "../cells";
import { RowChecker } from "../checks";
import type { Cells, KindSpec } from "../types";

const KINDS = ["equity", "etf", "index", "volatility_index"] as const;
const STYLES = ["american", "european"] as const;

export const instrumentsSpec: KindSpec<Instrument> = {
  kind: "instruments",
  required: ["symbol", "name", "sector", "kind", "next_earnings_date", "dividend_yield"],
  optional: ["exercise_style", "earnings_timing"],

  parse(cells: Cells) {
    const r = new CellReader(cells);
    const symbol = r.read("symbol", parseSymbol);
    const name = r.read("name", parseText);
    const sector = r.read("sector", parseText);
    const kind = r.read("kind", (s) => s.toLowerCase()) as Instrument["kind"];
    const nextEarningsDate = r.read("next_earnings_date", parseOptionalIsoDate);
    const dividendYield = r.read("dividend_yield", (s, c) => (s === "" ? 0 : parseNumber(s, c)));
    const style = r.text("exercise_style").toLowerCase();
    const timing = r.text("earnings_timing").toLowerCase();
    if (
      r.errors.length ||
      symbol === undefined ||
      name === undefined ||
      sector === undefined ||
      nextEarningsDate === undefined ||
      dividendYield === undefined
    )
      return { rows: [], errors: r.errors };
    const row: Instrument = { symbol, name, sector, kind, nextEarningsDate, dividendYield };
    // Blank: by kind (american for equities and ETFs, european for indices); anything else is checked below.
    if (style !== "") row.exerciseStyle = style as Instrument["exerciseStyle"];
    // Blank or absent: unknown (stored null); anything else is checked below.
    if (timing !== "") row.earningsTiming = timing as Instrument["earningsTiming"];
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
    if (row.exerciseStyle !== undefined) c.oneOf("exercise_style", row.exerciseStyle, STYLES);
    if (row.earningsTiming != null && c.oneOf("earnings_timing", row.earningsTiming, EARNINGS_TIMINGS)) {
      if (row.nextEarningsDate === null) c.fail("earnings_timing must be blank when next_earnings_date is blank");
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
