/**
 * The playground's history chart data (pure): from a getHistory / getHistoryDay answer (family B envelope) to the
 * numeric columns a chart can draw and one row per day. Text columns (sentiment, risk level, decision, failed checks)
 * stay in the JSON below the chart.
 */

export const HISTORY_OPERATIONS = ["GET /api/v1/history/{symbol}", "GET /api/v1/history/{symbol}/{date}"];

/** The row keys that are not metric columns. */
const ROW_KEYS = new Set(["date", "data_label", "as_of"]);

export type HistoryChartRow = { date: string } & Record<string, number | null | string>;

export interface HistorySeries {
  symbol: string | null;
  /** Columns with a number on at least one day, in the answer's order. */
  fields: string[];
  /** Ascending by date; a field is null on a day without a value. */
  rows: HistoryChartRow[];
}

const isRow = (r: unknown): r is Record<string, unknown> & { date: string } =>
  typeof r === "object" && r !== null && typeof (r as { date?: unknown }).date === "string";

/**
 * The series in a history answer, or null when the body is not one (an error, CSV text, another route's answer).
 * A getHistory answer gives its rows; a getHistoryDay answer is a series of one day.
 */
export function historySeries(body: unknown): HistorySeries | null {
  if (typeof body !== "object" || body === null) return null;
  const data = (body as { data?: unknown }).data;
  if (typeof data !== "object" || data === null) return null;
  const d = data as { rows?: unknown; columns?: unknown; symbol?: unknown };
  let raw: (Record<string, unknown> & { date: string })[];
  let order: string[];
  if (Array.isArray(d.rows)) {
    raw = d.rows.filter(isRow);
    order = Array.isArray(d.columns) ? d.columns.filter((c): c is string => typeof c === "string") : [];
  } else if (isRow(data)) {
    raw = [data];
    order = [];
  } else return null;
  if (order.length === 0) order = [...new Set(raw.flatMap((r) => Object.keys(r)))].filter((k) => !ROW_KEYS.has(k));
  const fields = order.filter((f) => raw.some((r) => typeof r[f] === "number" && Number.isFinite(r[f])));
  const rows = [...raw]
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
    .map((r) => {
      const out: HistoryChartRow = { date: r.date };
      for (const f of fields) {
        const v = r[f];
        out[f] = typeof v === "number" && Number.isFinite(v) ? v : null;
      }
      return out;
    });
  return { symbol: typeof d.symbol === "string" ? d.symbol : null, fields, rows };
}

/** Which field the chart starts on: the first of these the answer has, else its first numeric column. */
const PREFERRED = ["iv_rank", "atm_iv_30d", "price", "service_score"];

export function defaultField(fields: string[]): string | null {
  return PREFERRED.find((f) => fields.includes(f)) ?? fields[0] ?? null;
}

/** The columns' names in words (the reference defines each; the picker shows the column name itself). */
const LABELS: Record<string, string> = {
  price: "Price",
  iv_rank: "IV rank",
  iv_percentile: "IV percentile",
  atm_iv_30d: "ATM IV (30 d)",
  skew_25d: "25-delta skew",
  term_slope: "Term slope",
  expected_move: "Expected move (USD)",
  expected_move_pct: "Expected move (%)",
  service_score: "Signal score",
  calls_premium: "Calls premium (USD)",
  puts_premium: "Puts premium (USD)",
  sweep_count: "Sweeps",
  block_count: "Blocks",
  unusual_count: "Unusual events",
};

/** A column in words: a known metric's name, `component_<name>` as "Component <name>", else the column name. */
export function fieldLabel(field: string): string {
  if (LABELS[field]) return LABELS[field];
  if (field.startsWith("component_")) return `Component ${field.slice(10)}`;
  return field;
}

/** The lowest, highest and last value of one field (days without a value skipped), for the chart's summary line. */
export function fieldSummary(
  rows: HistoryChartRow[],
  field: string,
): { days: number; min: number; max: number; last: number; lastDate: string } | null {
  const points = rows.flatMap((r) => (typeof r[field] === "number" ? [{ date: r.date, v: r[field] as number }] : []));
  if (points.length === 0) return null;
  const values = points.map((p) => p.v);
  const last = points[points.length - 1];
  return { days: points.length, min: Math.min(...values), max: Math.max(...values), last: last.v, lastDate: last.date };
}

/** A value as the chart and its table show it: as answered, grouped, up to 4 decimals; a missing day as an en dash. */
export function formatValue(v: number | null | string | undefined): string {
  if (typeof v !== "number") return "–";
  return v.toLocaleString("en-US", { maximumFractionDigits: 4 });
}
