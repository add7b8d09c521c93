/**
 * `treasury` CSV: the US Treasury "Daily Treasury Par Yield Curve Rates" download, exactly as published:
 *   Date,1 Mo,2 Mo,3 Mo,4 Mo,6 Mo,1 Yr,2 Yr,3 Yr,5 Yr,7 Yr,10 Yr,20 Yr,30 Yr
 * - Columns are mapped by header name (case-insensitive), so their order does not matter and a year's file
 *   may lack tenor columns (4 Mo before late 2022, 2 Mo before late 2018, …). Date and at least one tenor
 *   column are required; any other column name is rejected.
 * - "1.5 Month" (published since 2025) is accepted and IGNORED: it is not one of the stored tenors.
 * - Date: MM/DD/YYYY. Row order is free (the Treasury publishes newest first). A date may appear once.
 * - Yields: percent (4.25 = 4.25 %), plausible range -1..25. A blank cell (or N/A) means "not published"
 *   and stores nothing for that date x tenor — never zero.
 * Stored as one treasury_yields row per date x tenor, tenors 1M … 30Y.
 */
import { TENORS, type Tenor, type TreasuryYield } from "../../../analytics/types";
import { CellReader, parseNumber, parseUsDate } from "../cells";
import { RowChecker, utcMidnight } from "../checks";
import type { Cells, KindSpec } from "../types";

/** Published column name → stored tenor. */
export const TREASURY_COLUMNS: Readonly<Record<string, Tenor>> = {
  "1 Mo": "1M", "2 Mo": "2M", "3 Mo": "3M", "4 Mo": "4M", "6 Mo": "6M", "1 Yr": "1Y", "2 Yr": "2Y",
  "3 Yr": "3Y", "5 Yr": "5Y", "7 Yr": "7Y", "10 Yr": "10Y", "20 Yr": "20Y", "30 Yr": "30Y",
};
export const TREASURY_IGNORED_COLUMNS = ["1.5 Month"] as const;
const YIELD_RULE = { min: -1, max: 25, hint: "percent: 4.25 = 4.25 %" };

const byNormalized = new Map(Object.entries(TREASURY_COLUMNS).map(([col, tenor]) => [col.toLowerCase(), { col, tenor }]));

export const treasurySpec: KindSpec<TreasuryYield> = {
  kind: "treasury",
  required: ["Date"],
  // Published order; "1.5 Month" sits between 1 Mo and 2 Mo in 2025 files.
  optional: ["1 Mo", "1.5 Month", ...Object.keys(TREASURY_COLUMNS).slice(1)],

  checkHeader(present) {
    return present.some((h) => byNormalized.has(h)) ? null : `no tenor columns (expected some of: ${Object.keys(TREASURY_COLUMNS).join(", ")})`;
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
    const col = tenorOk ? Object.keys(TREASURY_COLUMNS).find((k) => TREASURY_COLUMNS[k] === row.tenor)! : "yield";
    c.number(col, row.yieldPct, YIELD_RULE);
    return c.errors;
  },

  key: (row) => `${row.date}|${row.tenor}`,
  describeKey: (row) => `Date ${row.date}`,
  time: (row) => utcMidnight(row.date),
};
