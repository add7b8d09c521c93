/**
 * Reads the daily metric snapshots for the history routes and for `as_of`: a date-ordered series of chosen fields,
 * or one day rebuilt into the four public answers (docs/analytics.md "History").
 */
import type { Db } from "../db/client";
import type { MarketEnv } from "../analytics/types";
import type { SignalComponentName } from "../analytics/signal-score";
import { newYorkDate } from "../analytics/exchange-calendar";
import {
  knownSymbol,
  readSnapshotDay,
  readSnapshots,
  snapshotRangeVersion,
  type StoredSnapshot,
} from "../market/metric-snapshots-store";
import type { DataLabel } from "./types";
import { answersOf, type DayAnswers, type SnapshotInputs } from "./daily-snapshots";

/** The metric names `fields` takes, in the order columns are answered. */
export const HISTORY_FIELDS = [
  "price",
  "iv_rank",
  "iv_percentile",
  "atm_iv_30d",
  "skew_25d",
  "term_slope",
  "expected_move",
  "expected_move_pct",
  "service_score",
  "components",
  "sentiment",
  "risk_level",
  "no_trade_decision",
  "failed_checks",
  "calls_premium",
  "puts_premium",
  "sweep_count",
  "block_count",
  "unusual_count",
] as const;
export type HistoryField = (typeof HISTORY_FIELDS)[number];

/** The signal components, each answered as its own column `component_<name>` (its sub-score). */
export const COMPONENT_NAMES = [
  "momentum20d",
  "trend50d",
  "flow_net_premium_share",
  "put_call_oi_ratio",
  "skew25d",
  "iv_rank",
  "liquidity",
] as const satisfies readonly SignalComponentName[];

/** The most days one history request may span (from and to included). */
export const HISTORY_MAX_SPAN_DAYS = 400;

export type HistoryValue = number | string | string[] | null;
export type HistoryRow = { date: string; data_label: DataLabel; as_of: string } & Record<string, HistoryValue>;

/** The answered columns of a field list: every field by its name, `components` as one column per component. */
export function historyColumns(fields: readonly HistoryField[]): string[] {
  return columnsOf(fields).map((c) => c.name);
}

const VALUE: Record<Exclude<HistoryField, "components">, (s: StoredSnapshot) => HistoryValue> = {
  price: (s) => s.price,
  iv_rank: (s) => s.ivRank,
  iv_percentile: (s) => s.ivPercentile,
  atm_iv_30d: (s) => s.atmIv30d,
  skew_25d: (s) => s.skew25d,
  term_slope: (s) => s.termSlope,
  expected_move: (s) => s.expectedMove,
  expected_move_pct: (s) => s.expectedMovePct,
  service_score: (s) => s.serviceScore,
  sentiment: (s) => s.sentiment,
  risk_level: (s) => s.riskLevel,
  no_trade_decision: (s) => s.noTradeDecision,
  failed_checks: (s) => s.failedChecks,
  calls_premium: (s) => s.callsPremium,
  puts_premium: (s) => s.putsPremium,
  sweep_count: (s) => s.sweepCount,
  block_count: (s) => s.blockCount,
  unusual_count: (s) => s.unusualCount,
};

interface Column {
  name: string;
  /** `,"name":` — the column's key as written in a row's JSON. */
  jsonKey: string;
  value: (s: StoredSnapshot) => HistoryValue;
}

const columnsByFields = new Map<string, Column[]>();

/** The columns of a field list with how each reads a stored row (memoised: field lists are few). */
function columnsOf(fields: readonly HistoryField[]): Column[] {
  const key = fields.join(",");
  let columns = columnsByFields.get(key);
  if (columns === undefined) {
    columns = fields.flatMap((f): Column[] =>
      f === "components"
        ? COMPONENT_NAMES.map((c) => column(`component_${c}`, (s) => s.components[c] ?? null))
        : [column(f, VALUE[f])],
    );
    if (columnsByFields.size < 1024) columnsByFields.set(key, columns);
  }
  return columns;
}
const column = (name: string, value: Column["value"]): Column => ({
  name,
  jsonKey: `,${JSON.stringify(name)}:`,
  value,
});

/** One answered row: date, data label, as-of time, then the chosen fields' columns. */
export function historyRow(s: StoredSnapshot, fields: readonly HistoryField[], label: DataLabel): HistoryRow {
  const row: HistoryRow = { date: s.date, data_label: label, as_of: s.asOf.toISOString() };
  for (const c of columnsOf(fields)) row[c.name] = c.value(s);
  return row;
}

/** A value as JSON.stringify writes it (a number that is not finite is null). */
const jsonOf = (v: HistoryValue) =>
  typeof v === "number" ? (Number.isFinite(v) ? String(v) : "null") : v === null ? "null" : JSON.stringify(v);

/**
 * The rows as one JSON array, exactly `JSON.stringify(stored.map((s, i) => historyRow(s, fields, labels[i])))`,
 * written straight from the stored rows (no row objects: the long series are the history route's hot path).
 */
export function historyRowsJson(
  stored: readonly StoredSnapshot[],
  fields: readonly HistoryField[],
  labels: readonly DataLabel[],
): string {
  const columns = columnsOf(fields);
  const out: string[] = new Array(stored.length);
  for (let i = 0; i < stored.length; i++) {
    const s = stored[i];
    let row = `{"date":${JSON.stringify(s.date)},"data_label":${JSON.stringify(labels[i])},"as_of":"${s.asOf.toISOString()}"`;
    for (const c of columns) row += c.jsonKey + jsonOf(c.value(s));
    out[i] = `${row}}`;
  }
  return `[${out.join(",")}]`;
}

export const historyToday = (now: Date) => newYorkDate(now);

/** A symbol's stored rows of a range with the range's version (snapshotRangeVersion); null when the symbol is unknown. */
export async function readHistory(db: Db, env: MarketEnv, symbol: string, from: string, to: string) {
  const read = await readSnapshots(db, env, symbol, from, to);
  if (read.rows.length === 0 && !(await knownSymbol(db, env, symbol))) return null;
  return read;
}

/** The version readHistory answers for the same range, read without the rows (a cached answer's check). */
export const historyVersion = (db: Db, env: MarketEnv, symbol: string, from: string, to: string) =>
  snapshotRangeVersion(db, env, symbol, from, to);

/** One stored day rebuilt into the four answers; null when the symbol is unknown, "none" when the day has no row. */
export async function readHistoryDay(
  db: Db,
  env: MarketEnv,
  symbol: string,
  date: string,
): Promise<{ snapshot: StoredSnapshot; answers: DayAnswers } | "none" | null> {
  const row = await readSnapshotDay(db, env, symbol, date);
  if (!row) return (await knownSymbol(db, env, symbol)) ? "none" : null;
  const { inputs, ...snapshot } = row;
  return { snapshot, answers: answersOf(symbol, row.asOf, inputs as unknown as SnapshotInputs, env === "demo") };
}
