/**
 * The account's request log (the /dashboard/logs page), read from usage_events, which the gateway meters into: filters,
 * request id search, keyset pagination, and for an error answer the body the caller got, rebuilt from the kept message
 * by the renderer the caller passes (lib/api/logged-error.ts: the domain does not render API bodies). Every read has a
 * created_at range so the table partitioned by day is pruned.
 */
import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { SYMBOL_PATTERN } from "../analytics/types";
import { DomainError } from "./errors";
import {
  ERROR_CODE_FILTER,
  REQUEST_ID_FILTER,
  STATUS_FILTER,
  type RequestLogEntry,
  type RequestLogPage,
  type RequestLogQuery,
} from "../shared/usage-types";
import { statusClassOf } from "./usage";

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

export const LOG_DEFAULT_RANGE_MS = 7 * DAY_MS;
export const LOG_MAX_RANGE_MS = 31 * DAY_MS;
export const LOG_PAGE_MAX = 100;

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/** The cursor is the last row's (created_at, id), with created_at at the database's microsecond precision. */
export function encodeCursor(time: string, id: string): string {
  return Buffer.from(JSON.stringify([time, id])).toString("base64url");
}

export function decodeCursor(cursor: string): { time: string; id: string } {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(parsed) && parsed.length === 2 && CURSOR_TIME.test(parsed[0]) && /^\d{1,18}$/.test(parsed[1]))
      return { time: parsed[0], id: parsed[1] };
  } catch {
    // fall through to the one error below
  }
  throw new DomainError("invalid", "The page cursor is not valid; start again from the first page.", {
    field: "cursor",
  });
}

/** Without a range: the last 7 days, or 31 for a request id search (a quoted id is often older than a week). */
function logRange(q: RequestLogQuery, now: Date) {
  const to = q.to ?? new Date(now.getTime() + MINUTE_MS);
  const from = q.from ?? new Date(to.getTime() - (q.requestId ? LOG_MAX_RANGE_MS : LOG_DEFAULT_RANGE_MS));
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()))
    throw new DomainError("invalid", "The time range is not valid.", { field: "from" });
  if (from >= to)
    throw new DomainError("invalid", "The start of the time range must be before its end.", { field: "from" });
  if (to.getTime() - from.getTime() > LOG_MAX_RANGE_MS)
    throw new DomainError("invalid", "The time range may span at most 31 days.", { field: "from" });
  return { from, to };
}

const invalid = (field: string, message: string) => new DomainError("invalid", message, { field });

/** The path segment a route template puts its {symbol} or {ticker} in (1-based, as split_part counts; 1 is always ""). */
const SYMBOL_SEGMENT = sql.raw(
  `greatest(1, coalesce(array_position(string_to_array(split_part(e.endpoint_id, ' ', 2), '/'), '{symbol}'), array_position(string_to_array(split_part(e.endpoint_id, ' ', 2), '/'), '{ticker}'), 1))`,
);

/**
 * The status, error-code, symbol and request id filters as SQL, each validated first. Status: a class (2xx, 429, 4xx
 * without 429, 5xx) or one code. Symbol: the route's {symbol}/{ticker} segment of the requested path, or a symbol(s)=
 * query value. Request id: exactly, or a live stream's rows metered under it (`<id>:<event id>+<n>`).
 */
function logFilters(q: RequestLogQuery) {
  const parts = [];
  if (q.requestId !== undefined) {
    if (!REQUEST_ID_FILTER.test(q.requestId))
      throw invalid("request_id", "A request id is 1–128 letters, digits and . _ : -, as in the X-Request-Id header.");
    const prefix = `${q.requestId}:`;
    parts.push(sql`and (e.request_id = ${q.requestId} or left(e.request_id, ${prefix.length}) = ${prefix})`);
  }
  if (q.status !== undefined) {
    if (!STATUS_FILTER.test(q.status))
      throw invalid("status", "Status must be a class (2xx, 4xx, 5xx, 429) or a status code from 100 to 599.");
    parts.push(
      q.status.endsWith("xx") ? sql`and ${statusClassOf("e")} = ${q.status}` : sql`and e.status = ${Number(q.status)}`,
    );
  }
  if (q.errorCode !== undefined) {
    if (!ERROR_CODE_FILTER.test(q.errorCode))
      throw invalid("error_code", "An error code is lower-case letters, digits and _, e.g. symbol_not_found.");
    parts.push(sql`and e.error_code = ${q.errorCode}`);
  }
  if (q.symbol !== undefined) {
    const symbol = q.symbol.trim().toUpperCase();
    if (!SYMBOL_PATTERN.test(symbol))
      throw invalid("symbol", "A symbol is 1–6 letters, optionally . or - and 1–2 letters (e.g. BRK.B).");
    const inQuery = `(^|&)symbols?=([^&]*(,|%2C))?${symbol.replace(".", "\\.")}(&|,|%2C|$)`;
    parts.push(sql`and (upper(split_part(split_part(e.path, '?', 1), '/', ${SYMBOL_SEGMENT})) = ${symbol}
      or split_part(e.path, '?', 2) ~* ${inQuery})`);
  }
  return sql.join(parts, sql` `);
}

/** What an error row keeps of its answer, for the renderer of the body (lib/api/logged-error.ts, loggedErrorBody). */
export interface KeptError {
  family: "A" | "B";
  env: "test" | "live";
  code: string;
  message: string;
  time: Date;
}

/** A usage_events row as the log reads it. */
type LogRow = {
  id: string;
  ts: string;
  key_id: string;
  prefix: string;
  endpoint_id: string;
  path: string | null;
  status: number;
  error_code: string | null;
  latency_ms: number;
  request_id: string;
  response_bytes: number | null;
  burst_remaining: number | null;
  burst_limit: number | null;
  quota_remaining: number | null;
  quota_limit: number | null;
  error_message: string | null;
  family: "A" | "B" | null;
  env: "test" | "live";
};

function toEntry(r: LogRow, renderError?: (kept: KeptError) => unknown): RequestLogEntry {
  const space = r.endpoint_id.indexOf(" ");
  const route = r.endpoint_id.slice(space + 1);
  return {
    id: r.id,
    time: r.ts,
    keyId: r.key_id,
    keyPrefix: r.prefix,
    method: r.endpoint_id.slice(0, space),
    route,
    path: r.path ?? route,
    pathKept: r.path !== null,
    status: r.status,
    errorCode: r.error_code,
    latencyMs: Math.round(r.latency_ms * 10) / 10,
    requestId: r.request_id,
    responseBytes: r.response_bytes,
    errorBody:
      r.error_message !== null && r.error_code !== null && r.family !== null && renderError
        ? renderError({
            family: r.family,
            env: r.env,
            code: r.error_code,
            message: r.error_message,
            time: new Date(r.ts),
          })
        : null,
    rateLimit:
      r.burst_remaining === null || r.burst_limit === null || r.quota_remaining === null || r.quota_limit === null
        ? null
        : {
            burstRemaining: r.burst_remaining,
            burstLimit: r.burst_limit,
            quotaRemaining: r.quota_remaining,
            quotaLimit: r.quota_limit,
          },
  };
}

/**
 * One page of the account's request log, newest first; keyset pagination on (created_at, id), never an offset. An error
 * row's `errorBody` is what `renderError` makes of what it kept (null without a renderer, on 2xx, and on older rows).
 */
export async function requestLog(
  db: Db,
  accountId: string,
  q: RequestLogQuery = {},
  now: Date = new Date(),
  renderError?: (kept: KeptError) => unknown,
): Promise<RequestLogPage> {
  const { from, to } = logRange(q, now);
  const limit = q.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > LOG_PAGE_MAX)
    throw new DomainError("invalid", `A page holds 1–${LOG_PAGE_MAX} requests.`, { field: "limit" });
  const filters = logFilters(q);
  if (q.keyId) {
    const owned = await db.execute(
      sql`select 1 from api_keys where id = ${q.keyId} and account_id = ${accountId}::uuid`,
    );
    if (owned.length === 0) throw new DomainError("not_found", "No such key in this account.", { field: "key" });
  }
  const after = q.cursor ? decodeCursor(q.cursor) : null;
  const rows = await db.execute<LogRow>(sql`
    select e.id::text as id, to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as ts, e.key_id, k.prefix,
      e.endpoint_id, e.path, e.status, e.error_code, e.latency_ms, e.request_id,
      e.response_bytes, e.burst_remaining, e.burst_limit, e.quota_remaining, e.quota_limit, e.error_message, ep.family, k.env
    from usage_events e join api_keys k on k.id = e.key_id left join endpoints ep on ep.id = e.endpoint_id
    where e.account_id = ${accountId}::uuid and e.created_at >= ${from.toISOString()}::timestamptz and e.created_at < ${to.toISOString()}::timestamptz
      ${q.keyId ? sql`and e.key_id = ${q.keyId}` : sql``}
      ${q.endpointId ? sql`and e.endpoint_id = ${q.endpointId}` : sql``}
      ${filters}
      ${after ? sql`and (e.created_at, e.id) < (${after.time}::timestamptz, ${after.id}::bigint)` : sql``}
    order by e.created_at desc, e.id desc
    limit ${limit + 1}`);
  const page = rows.slice(0, limit);
  const entries = page.map((r) => toEntry(r, renderError));
  const last = page.at(-1);
  return {
    entries,
    nextCursor: rows.length > limit && last ? encodeCursor(last.ts, last.id) : null,
    from: from.toISOString(),
    to: to.toISOString(),
  };
}
