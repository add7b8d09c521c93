/** The `treasury` CSV layout is documented in ../formats.ts (served in the API reference). */
import { TENORS, type Tenor, type TreasuryYield } from "../../../analytics/types";
import { CellReader, parseNumber, parseUsDate } from "../cells";
import { RowChecker, utcMidnight } from "../checks";
import type { Cells, KindSpec } from "../types";

/** Published column name → stored tenor. */
export const TREASURY_COLUMNS: Readonly<Record<string, Tenor>> = {
  "1 Mo": "1M",
  "2 Mo": "2M",
  "3 Mo": "3M",
  "4 Mo": "4M",
  "6 Mo": "6M",
  "1 Yr": "1Y",
  "2 Yr": "2Y",
  "3 Yr": "3Y",
  "5 Yr": "5Y",
  "7 Yr": "7Y",
  "10 Yr": "10Y",
  "20 Yr": "20Y",
  "30 Yr": "30Y",
};
export const TREASURY_IGNORED_COLUMNS = ["1.5 Month"] as const;
const YIELD_RULE = { min: -1, max: 25, hint: "percent: 4.25 = 4.25 %" };

const byNormalized = new Map(
  Object.entries(TREASURY_COLUMNS).map(([col, tenor]) => [col.toLowerCase(), { col, tenor }]),
);

export const treasurySpec: KindSpec<TreasuryYield> = {
  kind: "treasury",
  required: ["Date"],
  // Published order; "1.5 Month" sits between 1 Mo and 2 Mo in 2025 files.
  optional: ["1 Mo", "1.5 Month", ...Object.keys(TREASURY_COLUMNS).slice(1)],

  checkHeader(present) {
    return present.some((h) => byNormalized.has(h))
      ? null
      : `no tenor columns (expected some of: ${Object.keys(TREASURY_COLUMNS).join(", ")})`;
  },

  parse(cells: Cells) {
    const r = new CellReader(cells);
    const date = r.read("date", (s) => parseUsDate(s, "Date"));
    const rows: TreasuryYield[] = [];
    const errors: string[] = [];
    for (const [name, { col, tenor }] of byNormalized) {
      if (!(name in cells)) continue;
      const text = r.text(name);
      if (text === "" || text.toUpperCase() === "N/A") continue;
      const yieldPct = r.read(name, (s) => parseNumber(s, col));
      if (yieldPct === undefined || date === undefined) continue;
      const row: TreasuryYield = { date, tenor, yieldPct };
      const problems = treasurySpec.check(row, { [col]: text });
      if (problems.length) errors.push(...problems);
      else rows.push(row);
    }
    errors.unshift(...r.errors);
    return errors.length ? { rows: [], errors } : { rows, errors };
  },

  check(row, cells) {
    const c = new RowChecker(cells);
    c.isoDate("Date", row.date);
    const tenorOk = c.oneOf("tenor", row.tenor, TENORS);
    const col = (tenorOk && Object.keys(TREASURY_COLUMNS).find((k) => TREASURY_COLUMNS[k] === row.tenor)) || "yield";
    c.number(col, row.yieldPct, YIELD_RULE);
    return c.errors;
  },

  key: (row) => `${row.date}|${row.tenor}`,
  describeKey: (row) => `Date ${row.date}`,
  time: (row) => utcMidnight(row.date),
};
