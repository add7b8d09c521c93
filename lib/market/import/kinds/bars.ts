/** The `bars` CSV layout is documented in ../formats.ts (served in the API reference). */
import type { Bar } from "../../../analytics/types";
import { CellError, CellReader, parseCount, parseIsoDate, parseNumber, parseSymbol, parseTimestamp } from "../cells";
import { RowChecker, utcMidnight } from "../checks";
import type { Cells, KindSpec } from "../types";

const INTERVALS = ["1d", "5m"] as const;
const FIVE_MIN = 5 * 60_000;
const LOCAL_MIDNIGHT = /^\d{4}-\d{2}-\d{2}[Tt ]00:00(:00(\.0+)?)?([Zz]|[+-].*)$/;

/** Parses `timestamp` for the bar's interval. */
function parseBarTime(s: string, interval: Bar["interval"] | undefined): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) {
    if (interval === "5m")
      throw new CellError(`timestamp (${s}) needs a time and zone for 5m bars, e.g. 2025-01-17T14:35:00Z`);
    return utcMidnight(parseIsoDate(s, "timestamp"));
  }
  const at = parseTimestamp(s, "timestamp");
  if (interval !== "1d") return at;
  if (!LOCAL_MIDNIGHT.test(s))
    throw new CellError(`timestamp (${s}) of a 1d bar must be the session date (YYYY-MM-DD)`);
  return utcMidnight(s.slice(0, 10));
}

export const barsSpec: KindSpec<Bar> = {
  kind: "bars",
  required: ["symbol", "interval", "timestamp", "open", "high", "low", "close", "volume"],
  optional: [],

  parse(cells: Cells) {
    const r = new CellReader(cells);
    const symbol = r.read("symbol", parseSymbol);
    const interval = r.read("interval", (s) => {
      const v = s.toLowerCase();
      if (v === "1d" || v === "5m") return v;
      throw new CellError(`interval (${s}) must be 1d or 5m`);
    });
    const ts = r.read("timestamp", (s) => parseBarTime(s, interval));
    const [open, high, low, close] = (["open", "high", "low", "close"] as const).map((c) => r.read(c, parseNumber));
    const volume = r.read("volume", parseCount);
    if (
      r.errors.length ||
      symbol === undefined ||
      interval === undefined ||
      ts === undefined ||
      open === undefined ||
      high === undefined ||
      low === undefined ||
      close === undefined ||
      volume === undefined
    )
      return { rows: [], errors: r.errors };
    const row: Bar = { symbol, interval, ts, open, high, low, close, volume };
    const errors = barsSpec.check(row, cells);
    return errors.length ? { rows: [], errors } : { rows: [row], errors };
  },

  check(row, cells) {
    const c = new RowChecker(cells);
    c.symbol("symbol", row.symbol);
    const intervalOk = c.oneOf("interval", row.interval, INTERVALS);
    if (c.instant("timestamp", row.ts) && intervalOk) {
      const t = row.ts.getTime();
      if (row.interval === "1d" && t % 86_400_000 !== 0)
        c.fail(`timestamp (${c.show("timestamp", row.ts)}) of a 1d bar must be 00:00 UTC of the session date`);
      if (row.interval === "5m" && t % FIVE_MIN !== 0)
        c.fail(
          `timestamp (${c.show("timestamp", row.ts)}) is not on a 5-minute boundary (bars are stamped with their start)`,
        );
    }
    const prices = (["open", "high", "low", "close"] as const).filter((k) => c.number(k, row[k], { positive: true }));
    if (prices.length === 4) {
      const p = (k: "open" | "high" | "low" | "close") => `${k} (${c.show(k, row[k])})`;
      if (row.low > row.high) c.fail(`${p("low")} is above ${p("high")}`);
      for (const k of ["open", "close"] as const) {
        if (row[k] < row.low) c.fail(`${p(k)} is below ${p("low")}`);
        if (row[k] > row.high) c.fail(`${p(k)} is above ${p("high")}`);
      }
    }
    c.count("volume", row.volume);
    return c.errors;
  },

  key: (row) => `${row.symbol}|${row.interval}|${row.ts.getTime()}`,
  describeKey: (row) => `symbol ${row.symbol}, interval ${row.interval}, timestamp ${row.ts.toISOString()}`,
  symbol: (row) => row.symbol,
  time: (row) => row.ts,
};
