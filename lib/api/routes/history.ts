/**
 * History of the published metrics (docs/api-contract.md §7): a date-ordered series from the daily snapshots, as JSON
 * in family B's envelope or as CSV, and one day. The plan's history_days bounds how far back a key reads.
 */
import { z } from "zod";
import { stringify } from "csv-stringify/sync";
import { ApiError, invalid, KEYED_ROUTE_ERRORS } from "../errors";
import { defineRoute, type RenderedResult } from "../route";
import type { Caller } from "../credentials";
import { symbolSchema } from "./inputs";
import { isoCalendarDate, pastDayOf, shiftDate, withinPlanWindow } from "./history-inputs";
import { DISCLAIMER } from "../../contract/disclaimer";
import { dataLabel, labelIsFinal, type ViewSpec } from "../../engine/types";
import { appEnv } from "../../env";
import { HistoryCache, type RenderedHistory } from "./history-cache";
import {
  HISTORY_FIELDS,
  HISTORY_MAX_SPAN_DAYS,
  historyColumns,
  historyRow,
  historyRowsJson,
  historyToday,
  historyVersion,
  readHistory,
  type readHistoryDay,
  type HistoryField,
  type HistoryRow,
} from "../../engine/history-read";
import { planName } from "../../shared/plan-name";

const HISTORY_ERRORS = [...KEYED_ROUTE_ERRORS, "symbol_not_found"] as const;
const DEFAULT_SPAN_DAYS = 30;
const CSV_TYPE = "text/csv; charset=utf-8";

const value = z
  .union([z.number(), z.string(), z.array(z.string())])
  .nullable()
  .describe("The field's value (see the field list).");
const row = z
  .object({
    date: z.string().describe("New York session day, YYYY-MM-DD."),
    data_label: z
      .enum(["live", "delayed-15m", "end-of-day", "demo"])
      .describe("Data label of the row: `demo` for test keys, `end-of-day` for live snapshots (taken at the close)."),
    as_of: z.string().describe("As-of time of the newest data behind the row (ISO 8601): the day's close snapshot."),
  })
  .catchall(value)
  .describe("One day: date, data_label, as_of, then one column per requested field (see `fields`).");

const historySchema = z.object({
  symbol: z.string(),
  from: z.string().describe("First day asked for (YYYY-MM-DD)."),
  to: z.string().describe("Last day asked for (YYYY-MM-DD)."),
  columns: z.array(z.string()).describe("The field columns of each row, in order (after date, data_label, as_of)."),
  count: z.number().describe("Number of rows (session days with a snapshot in the range)."),
  rows: z.array(row).describe("One row per New York session day with a snapshot, ascending by date."),
});

const fieldsSchema = z
  .string()
  .transform((s, ctx) => {
    const names = s.split(",").map((f) => f.trim().toLowerCase());
    const unknown = names.filter((f) => !(HISTORY_FIELDS as readonly string[]).includes(f));
    if (unknown.length || names.length === 0) {
      ctx.addIssue({
        code: "custom",
        message: `unknown field${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}; one of ${HISTORY_FIELDS.join(", ")}`,
      });
      return z.NEVER;
    }
    return HISTORY_FIELDS.filter((f) => names.includes(f));
  })
  .describe(
    `Comma-separated metric names (default all): ${HISTORY_FIELDS.join(", ")}. \`components\` answers one column ` +
      "per signal component, `component_<name>` (its sub-score). Columns come in this list's order.",
  );

const historyQuery = z
  .object({
    from: isoCalendarDate
      .optional()
      .describe(`First day (YYYY-MM-DD, New York); default ${DEFAULT_SPAN_DAYS - 1} days before \`to\`.`),
    to: isoCalendarDate.optional().describe("Last day (YYYY-MM-DD, New York); default today."),
    fields: fieldsSchema.optional(),
    format: z.enum(["json", "csv"]).optional().describe("`csv` answers text/csv, as does `Accept: text/csv`."),
  })
  .strict();

const wantsCsv = (format: string | undefined, accept: string | null) =>
  format === "csv" || (format === undefined && accept !== null && /(^|,)\s*text\/csv\b/i.test(accept));

/** The series as CSV: the disclaimer as a comment line, a header, then the same columns as the JSON rows. */
function csvOf(rows: HistoryRow[], columns: string[]): string {
  const header = ["date", "data_label", "as_of", ...columns];
  const cells = rows.map((r) => header.map((c) => (Array.isArray(r[c]) ? (r[c] as string[]).join(";") : r[c])));
  return `# ${DISCLAIMER}\n${stringify([header, ...cells], { cast: { number: (n) => String(n) } })}`;
}

function checkWindow(caller: Caller, from: string, today: string): void {
  if (!withinPlanWindow(from, today, caller.plan.historyDays))
    throw new ApiError(
      "subscription_required",
      `The ${planName(caller.plan.features)} plan reads history back ${caller.plan.historyDays} days, to ${shiftDate(today, 1 - caller.plan.historyDays)}; ${from} is earlier.`,
    );
}

const unknownSymbol = (symbol: string) =>
  new ApiError("symbol_not_found", `The service has no data for symbol ${symbol}.`);
const envOf = (view: ViewSpec) => view.env;

export const getHistory = defineRoute({
  operationId: "getHistory",
  textAnswer: { contentType: "text/csv" },
  method: "GET",
  path: "/api/v1/history/{symbol}",
  family: "B",
  envelope: "B",
  errors: HISTORY_ERRORS,
  tags: ["Market analytics"],
  summary: "Daily history of a symbol's published metrics",
  description:
    "One row per New York session day from the daily snapshots taken at each close: price, IV rank and percentile, " +
    "30-day ATM IV, 25-delta skew, term slope, expected move, signal score and components, sentiment, risk level, the " +
    "no-trade decision with its failed checks and the day's flow totals. At most 400 days per request; the plan " +
    "decides how far back (Sandbox 30 days, Starter 90, Pro and Enterprise 400). `format=csv` or `Accept: text/csv` " +
    "answers CSV: the disclaimer as a `#` comment line, a header, then the same columns.",
  authenticated: true,
  params: z.object({ symbol: symbolSchema }).strict(),
  query: historyQuery,
  response: historySchema,
  handler: async ({ params, query, caller, view, database, now, accept }) => {
    const today = historyToday(now);
    const to = query.to ?? today;
    const from = query.from ?? shiftDate(to, 1 - DEFAULT_SPAN_DAYS);
    if (from > to) throw invalid(`query parameter 'from' (${from}) is after 'to' (${to}).`);
    if (shiftDate(from, HISTORY_MAX_SPAN_DAYS - 1) < to)
      throw invalid(`from ${from} to ${to} spans more than ${HISTORY_MAX_SPAN_DAYS} days.`);
    checkWindow(caller, from, today);
    const fields: readonly HistoryField[] = query.fields ?? HISTORY_FIELDS;
    const csv = wantsCsv(query.format, accept);
    const env = envOf(view);
    const cache = historyCache();
    const key = `${env}|${params.symbol}|${from}|${to}|${fields.join(",")}|${csv ? "csv" : "json"}`;
    const held = cache.get(key);
    if (held) {
      // Kept and confirmed within HISTORY_CACHE_CHECK_MS: as is. Otherwise as is only if the stored range is unchanged.
      const checking = performance.now();
      if (checking - held.checkedAt < checkMs()) return rendered(held, csv);
      if (held.version === (await historyVersion(database.db, env, params.symbol, from, to))) {
        held.checkedAt = checking;
        return rendered(held, csv);
      }
    }

    const reading = performance.now(); // the read sees at least the store as it was now
    const read = await readHistory(database.db, env, params.symbol, from, to);
    if (read === null) throw unknownSymbol(params.symbol);
    const stored = read.rows;
    const labels = stored.map((s) => dataLabel(view, s.asOf, now));
    const columns = historyColumns(fields);
    const body = csv
      ? csvOf(
          stored.map((s, i) => historyRow(s, fields, labels[i])),
          columns,
        )
      : `{"symbol":${JSON.stringify(params.symbol)},"from":"${from}","to":"${to}","columns":${JSON.stringify(columns)},` +
        `"count":${stored.length},"rows":${historyRowsJson(stored, fields, labels)}}`;
    const answer: RenderedHistory = { version: read.version, body, asOf: stored.at(-1)?.asOf, checkedAt: reading };
    // Kept only when no later call would label a row otherwise (a live row is `end-of-day` 30 minutes after its close).
    if (stored.length > 0 && labels.every(labelIsFinal)) cache.set(key, answer);
    else cache.delete(key);
    return rendered(answer, csv);
  },
});

/** The series as the pipeline answers it: the data's JSON text in family B's envelope, or the CSV body as is. */
function rendered(answer: RenderedHistory, csv: boolean): RenderedResult {
  const asOf = answer.asOf ? { asOf: answer.asOf } : {};
  return csv
    ? { data: undefined, text: { contentType: CSV_TYPE, body: answer.body }, ...asOf }
    : { data: undefined, json: answer.body, ...asOf };
}

let answers: HistoryCache | null = null;
/** The process's kept history answers (created on first use, sized by HISTORY_CACHE_MB). */
export const historyCache = () => (answers ??= new HistoryCache(appEnv().HISTORY_CACHE_MB * 1024 * 1024));
/** How long a kept answer is used without reading its range's version again: the most a write waits to be seen. */
const checkMs = () => appEnv().HISTORY_CACHE_CHECK_MS;

export const getHistoryDay = defineRoute({
  operationId: "getHistoryDay",
  method: "GET",
  path: "/api/v1/history/{symbol}/{date}",
  family: "B",
  envelope: "B",
  errors: [...HISTORY_ERRORS, "not_found"],
  tags: ["Market analytics"],
  summary: "One day of a symbol's published metrics",
  description:
    "The row of `GET /api/v1/history/{symbol}` for one New York session day (every field). 404 `not_found` when the " +
    "day has no snapshot (not a session day, or outside the stored history); the plan's history window applies.",
  authenticated: true,
  params: z.object({ symbol: symbolSchema, date: isoCalendarDate }).strict(),
  response: row,
  handler: async ({ params, caller, view, database, now }) => {
    const today = historyToday(now);
    checkWindow(caller, params.date, today);
    const day = await pastDayOf(database.db, view, params.symbol, params.date);
    return {
      data: historyRow(day.snapshot, HISTORY_FIELDS, dataLabel(view, day.snapshot.asOf, now)),
      asOf: day.snapshot.asOf,
    };
  },
});

/** `as_of` on the analytics routes: that day's stored snapshot rebuilt into the route's answer (or null: today's). */
export async function asOfAnswer(
  ctx: { caller: Caller; view: ViewSpec; database: { db: Parameters<typeof readHistoryDay>[0] }; now: Date },
  symbol: string,
  asOf: string,
) {
  const today = historyToday(ctx.now);
  if (asOf >= today) throw invalid(`query parameter 'as_of' must be a past date (before ${today}, New York).`);
  checkWindow(ctx.caller, asOf, today);
  return pastDayOf(ctx.database.db, ctx.view, symbol, asOf);
}

export const historyRoutes = [getHistory, getHistoryDay];
