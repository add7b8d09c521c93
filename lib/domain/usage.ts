/**
 * An account's usage, read from the tables the gateway meters into (lib/api/limits.ts): usage_daily for days and
 * per-key calls, usage_events for minutes and the request log, usage_counters for quota (the account's per environment,
 * and each key's share). Every usage_events read has a created_at
 * range so a table partitioned by day is pruned.
 */
import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { quotaBounds, quotaWindow } from "../limits/windows";
import { SYMBOL_PATTERN } from "../analytics/types";
import { DomainError } from "./errors";
import {
  ERROR_CODE_FILTER,
  STATUS_FILTER,
  type EnvQuota,
  type KeyCalls,
  type QuotaGauge,
  type RequestLogPage,
  type RequestLogQuery,
  type StatusClass,
  type UsageCell,
  type UsageKey,
  type UsageSummary,
} from "../shared/usage-types";

export * from "../shared/usage-types";

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
export const DAILY_DAYS = 30;
export const MINUTES = 60;

/** The status class of a usage_events row, as the request log and the minute series name it. */
const statusClassOf = (table: string) => {
  const s = `${table}.status`;
  return sql.raw(
    `case when ${s} between 200 and 299 then '2xx' when ${s} = 429 then '429' when ${s} between 400 and 499 then '4xx' else '5xx' end`,
  );
};

const utcDay = (d: Date) => new Date(Math.floor(d.getTime() / DAY_MS) * DAY_MS);
const utcMinute = (d: Date) => new Date(Math.floor(d.getTime() / MINUTE_MS) * MINUTE_MS);

async function endpointsAndKeys(db: Db, accountId: string) {
  const [endpoints, keys] = await Promise.all([
    db.execute<{ id: string; method: string; path: string; family: "A" | "B" }>(
      sql`select id, method, path, family from endpoints order by family, path, method`,
    ),
    db.execute<{ id: string; name: string; prefix: string; env: "test" | "live"; status: string }>(
      sql`select id, name, prefix, env, status from api_keys where account_id = ${accountId}::uuid order by created_at, id`,
    ),
  ]);
  return { endpoints: [...endpoints], keys: [...keys] };
}

/**
 * Calls per UTC day for the last `DAILY_DAYS` days, by route and status class (usage_daily: the gateway's own
 * aggregate).
 */
async function dailyCells(db: Db, accountId: string, now: Date, family: Map<string, "A" | "B">) {
  const today = utcDay(now);
  const days = Array.from({ length: DAILY_DAYS }, (_, i) =>
    new Date(today.getTime() - (DAILY_DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
  const rows = await db.execute<{ day: string; endpoint_id: string; ok: number; client: number; server: number }>(sql`
    select day::text as day, endpoint_id, sum(ok_calls)::int as ok, sum(client_errors)::int as client, sum(server_errors)::int as server
    from usage_daily where account_id = ${accountId}::uuid and day between ${days[0]}::date and ${days.at(-1)}::date
    group by day, endpoint_id`);
  const cells: UsageCell[] = [];
  for (const r of rows) {
    const f = family.get(r.endpoint_id) ?? "A";
    for (const [statusClass, calls] of [
      ["2xx", r.ok],
      ["4xx", r.client],
      ["5xx", r.server],
    ] as const) {
      if (calls > 0) cells.push({ bucket: r.day, endpointId: r.endpoint_id, family: f, statusClass, calls });
    }
  }
  return { days, cells };
}

/** Calls per UTC minute for the last `MINUTES` minutes, by route and status class (usage_events). */
async function minuteCells(db: Db, accountId: string, now: Date, family: Map<string, "A" | "B">) {
  const current = utcMinute(now);
  const from = new Date(current.getTime() - (MINUTES - 1) * MINUTE_MS);
  const to = new Date(current.getTime() + MINUTE_MS);
  const minutes = Array.from({ length: MINUTES }, (_, i) => new Date(from.getTime() + i * MINUTE_MS).toISOString());
  const rows = await db.execute<{
    minute: Date | string;
    endpoint_id: string;
    status_class: StatusClass;
    calls: number;
  }>(sql`
    select date_trunc('minute', created_at) as minute, endpoint_id, ${statusClassOf("usage_events")} as status_class, sum(units)::int as calls
    from usage_events where account_id = ${accountId}::uuid and created_at >= ${from.toISOString()}::timestamptz and created_at < ${to.toISOString()}::timestamptz
    group by 1, 2, 3`);
  const cells = rows.map((r) => ({
    bucket: new Date(r.minute).toISOString(),
    endpointId: r.endpoint_id,
    family: family.get(r.endpoint_id) ?? "A",
    statusClass: r.status_class,
    calls: r.calls,
  }));
  return { minutes, cells, from, to };
}

/** The counter row that holds an account's quota for one environment (as quota_counter_key in migration 0012). */
const accountCounter = (accountId: string, env: "test" | "live") => `account:${accountId}:${env}`;

/**
 * The account's quota per environment, and each key's calls and quota share in the current windows, read from the very
 * counter rows the gateway increments (usage_counters) and its daily aggregate (usage_daily).
 */
async function quotasAndKeyCalls(
  db: Db,
  accountId: string,
  keys: UsageKey[],
  now: Date,
): Promise<{ quotas: EnvQuota[]; keyCalls: KeyCalls[] }> {
  if (keys.length === 0) return { quotas: [], keyCalls: [] };
  const envs = (["test", "live"] as const).filter((env) => keys.some((k) => k.env === env));
  const month = quotaBounds("A", now);
  const day = quotaBounds("B", now);
  const today = utcDay(now).toISOString().slice(0, 10);
  const counterKeys = [...envs.map((env) => accountCounter(accountId, env)), ...keys.map((k) => k.id)];
  const [planRows, counters, calls] = await Promise.all([
    db.execute<{ id: string; a_per_month: number; b_per_day: number; account_plan: string }>(sql`
      select p.id, p.a_per_month, p.b_per_day, a.plan_id as account_plan
      from accounts a join plans p on p.id = a.plan_id or p.id = 'sandbox' where a.id = ${accountId}::uuid`),
    db.execute<{ key_id: string; bucket: string; count: number }>(sql`
      select key_id, bucket, count from usage_counters
      where key_id in (${sql.join(
        counterKeys.map((k) => sql`${k}`),
        sql`, `,
      )})
        and ((bucket = ${month.bucket} and window_start = ${month.start.toISOString()}::timestamptz)
          or (bucket = ${day.bucket} and window_start = ${day.start.toISOString()}::timestamptz))`),
    db.execute<{ key_id: string; today: number; month: number }>(sql`
      select key_id, (sum(calls) filter (where day = ${today}::date))::int as today, sum(calls)::int as month
      from usage_daily where account_id = ${accountId}::uuid and day >= ${month.start.toISOString().slice(0, 10)}::date
      group by key_id`),
  ]);
  const plans = new Map(planRows.map((p) => [p.id, { aPerMonth: p.a_per_month, bPerDay: p.b_per_day }]));
  const used = new Map(counters.map((c) => [`${c.key_id}|${c.bucket}`, c.count]));
  const count = (keyId: string, bucket: string) => used.get(`${keyId}|${bucket}`) ?? 0;

  const quotas = envs.map((env): EnvQuota => {
    const planId = env === "test" ? "sandbox" : (planRows[0]?.account_plan ?? "sandbox");
    const plan = plans.get(planId) ?? { aPerMonth: 0, bPerDay: 0 };
    const envKeys = keys.filter((k) => k.env === env);
    const gauge = (family: "A" | "B"): QuotaGauge => {
      const w = quotaWindow(family, plan, now);
      // The account row decides; admission never lets it fall behind a key's own row, so the larger is the use.
      const use = Math.max(
        count(accountCounter(accountId, env), w.bucket),
        ...envKeys.map((k) => count(k.id, w.bucket)),
      );
      return {
        window: w.name,
        used: Math.min(use, w.limit),
        limit: w.limit,
        windowStart: w.start.toISOString(),
        windowEnd: w.end.toISOString(),
      };
    };
    return { env, plan: planId, familyA: gauge("A"), familyB: gauge("B") };
  });

  const byKey = new Map(calls.map((c) => [c.key_id, c]));
  const keyCalls = keys
    .map(
      (k): KeyCalls => ({
        keyId: k.id,
        name: k.name,
        prefix: k.prefix,
        env: k.env,
        status: k.status,
        today: byKey.get(k.id)?.today ?? 0,
        month: byKey.get(k.id)?.month ?? 0,
        quotaA: count(k.id, month.bucket),
        quotaB: count(k.id, day.bucket),
      }),
    )
    .filter((k) => k.month > 0 || k.quotaA > 0 || k.quotaB > 0 || k.status !== "revoked")
    .sort((a, b) => b.month - a.month || b.today - a.today || a.name.localeCompare(b.name));
  return { quotas, keyCalls };
}

async function rateLimited(db: Db, accountId: string, now: Date, hourFrom: Date, hourTo: Date) {
  const dayFrom = utcDay(now);
  const from = hourFrom < dayFrom ? hourFrom : dayFrom;
  const [r] = await db.execute<{ hour429: number; hour_calls: number; day429: number; day_calls: number }>(sql`
    select count(*) filter (where status = 429 and created_at >= ${hourFrom.toISOString()}::timestamptz)::int as hour429,
      coalesce(sum(units) filter (where created_at >= ${hourFrom.toISOString()}::timestamptz), 0)::int as hour_calls,
      count(*) filter (where status = 429 and created_at >= ${dayFrom.toISOString()}::timestamptz)::int as day429,
      coalesce(sum(units) filter (where created_at >= ${dayFrom.toISOString()}::timestamptz), 0)::int as day_calls
    from usage_events where account_id = ${accountId}::uuid and created_at >= ${from.toISOString()}::timestamptz and created_at < ${hourTo.toISOString()}::timestamptz`);
  return {
    lastHour: r?.hour429 ?? 0,
    lastHourCalls: r?.hour_calls ?? 0,
    today: r?.day429 ?? 0,
    todayCalls: r?.day_calls ?? 0,
  };
}

/** Everything the usage page shows above the request log, for one account. */
export async function usageSummary(db: Db, accountId: string, now: Date = new Date()): Promise<UsageSummary> {
  const { endpoints, keys } = await endpointsAndKeys(db, accountId);
  const family = new Map(endpoints.map((e) => [e.id, e.family]));
  const [daily, minutes, { quotas, keyCalls }] = await Promise.all([
    dailyCells(db, accountId, now, family),
    minuteCells(db, accountId, now, family),
    quotasAndKeyCalls(db, accountId, keys, now),
  ]);
  const limited = await rateLimited(db, accountId, now, new Date(minutes.from), minutes.to);
  return {
    now: now.toISOString(),
    endpoints,
    keys,
    daily,
    minutes: { minutes: minutes.minutes, cells: minutes.cells },
    quotas,
    keyCalls,
    rateLimited: limited,
  };
}

// ---- request log ---------------------------------------------------------------------------------------------------

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

function logRange(q: RequestLogQuery, now: Date) {
  const to = q.to ?? new Date(now.getTime() + MINUTE_MS);
  const from = q.from ?? new Date(to.getTime() - LOG_DEFAULT_RANGE_MS);
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
 * The status, error-code and symbol filters as SQL, each validated first. Status: a class (2xx, 429, 4xx without 429,
 * 5xx) or one code. Symbol: the route's {symbol}/{ticker} segment of the requested path, or a symbol(s)= query value.
 */
function logFilters(q: RequestLogQuery) {
  const parts = [];
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

/** One page of the account's request log, newest first; keyset pagination on (created_at, id), never an offset. */
export async function requestLog(
  db: Db,
  accountId: string,
  q: RequestLogQuery = {},
  now: Date = new Date(),
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
  const rows = await db.execute<{
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
  }>(sql`
    select e.id::text as id, to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as ts, e.key_id, k.prefix,
      e.endpoint_id, e.path, e.status, e.error_code, e.latency_ms, e.request_id,
      e.response_bytes, e.burst_remaining, e.burst_limit, e.quota_remaining, e.quota_limit
    from usage_events e join api_keys k on k.id = e.key_id
    where e.account_id = ${accountId}::uuid and e.created_at >= ${from.toISOString()}::timestamptz and e.created_at < ${to.toISOString()}::timestamptz
      ${q.keyId ? sql`and e.key_id = ${q.keyId}` : sql``}
      ${q.endpointId ? sql`and e.endpoint_id = ${q.endpointId}` : sql``}
      ${filters}
      ${after ? sql`and (e.created_at, e.id) < (${after.time}::timestamptz, ${after.id}::bigint)` : sql``}
    order by e.created_at desc, e.id desc
    limit ${limit + 1}`);
  const page = rows.slice(0, limit);
  const entries = page.map((r) => {
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
  });
  const last = page.at(-1);
  return {
    entries,
    nextCursor: rows.length > limit && last ? encodeCursor(last.ts, last.id) : null,
    from: from.toISOString(),
    to: to.toISOString(),
  };
}

export interface DailyUsageRow {
  day: string;
  endpointId: string;
  calls: number;
  ok: number;
  clientErrors: number;
  serverErrors: number;
}

/** Calls per UTC day and endpoint over the last `days` days (today included), from the gateway's daily aggregate. */
export async function usageByDay(
  db: Db,
  accountId: string,
  days: number,
  now: Date = new Date(),
): Promise<DailyUsageRow[]> {
  if (!Number.isInteger(days) || days < 1 || days > 400)
    throw new DomainError("invalid", "days is a whole number from 1 to 400", { field: "days" });
  const from = new Date(utcDay(now).getTime() - (days - 1) * DAY_MS).toISOString().slice(0, 10);
  const rows = await db.execute<{
    day: string;
    endpoint_id: string;
    calls: number;
    ok: number;
    client: number;
    server: number;
  }>(sql`
    select day::text as day, endpoint_id, sum(calls)::int as calls, sum(ok_calls)::int as ok, sum(client_errors)::int as client, sum(server_errors)::int as server
    from usage_daily where account_id = ${accountId}::uuid and day >= ${from}::date
    group by day, endpoint_id order by day, endpoint_id`);
  return [...rows].map((r) => ({
    day: r.day,
    endpointId: r.endpoint_id,
    calls: r.calls,
    ok: r.ok,
    clientErrors: r.client,
    serverErrors: r.server,
  }));
}
