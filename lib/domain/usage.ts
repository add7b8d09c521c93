/**
 * An account's usage, read from the tables the gateway meters into (lib/api/limits.ts): usage_daily for days and
 * per-key calls, usage_events for minutes (the request log: request-log.ts), usage_counters for quota (the account's per environment,
 * and each key's share). Every usage_events read has a created_at
 * range so a table partitioned by day is pruned.
 */
import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { quotaBounds, quotaWindow } from "../limits/windows";
import { DomainError } from "./errors";
import type {
  EnvQuota,
  KeyCalls,
  QuotaGauge,
  StatusClass,
  UsageCell,
  UsageKey,
  UsageSummary,
} from "../shared/usage-types";

export * from "../shared/usage-types";

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
export const DAILY_DAYS = 30;
export const MINUTES = 60;

/** The status class of a usage_events row, as the request log and the minute series name it. */
export const statusClassOf = (table: string) => {
  const s = `${table}.status`;
  return sql.raw(
    `case when ${s} between 200 and 299 then '2xx' when ${s} = 429 then '429' when ${s} between 400 and 499 then '4xx' else '5xx' end`,
  );
};

const utcDay = (d: Date) => new Date(Math.floor(d.getTime() / DAY_MS) * DAY_MS);
const utcMinute = (d: Date) => new Date(Math.floor(d.getTime() / MINUTE_MS) * MINUTE_MS);

/** The routes and the account's keys: the usage page's and the request log's filters. */
export async function endpointsAndKeys(db: Db, accountId: string) {
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
  const keyIds = sql.join(
    keys.map((k) => sql`${k.id}`),
    sql`, `,
  );
  const [planRows, counters, calls] = await Promise.all([
    db.execute<{ id: string; a_per_month: number; b_per_day: number; account_plan: string }>(sql`
      select p.id, p.a_per_month, p.b_per_day, a.plan_id as account_plan
      from accounts a join plans p on p.id = a.plan_id or p.id = 'sandbox' where a.id = ${accountId}::uuid`),
    // The account's rows are named by quota_counter_key (db/functions/quota_counter_key.sql), per environment: `env:<env>`.
    db.execute<{ key_id: string; bucket: string; count: number }>(sql`
      select coalesce('env:' || q.env, c.key_id) as key_id, c.bucket, c.count from usage_counters c
      left join (select distinct quota_counter_key(id) as counter, env::text as env from api_keys where id in (${keyIds})) q
        on q.counter = c.key_id
      where (c.key_id in (${keyIds}) or q.counter is not null)
        and ((c.bucket = ${month.bucket} and c.window_start = ${month.start.toISOString()}::timestamptz)
          or (c.bucket = ${day.bucket} and c.window_start = ${day.start.toISOString()}::timestamptz))`),
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
      const use = Math.max(count(`env:${env}`, w.bucket), ...envKeys.map((k) => count(k.id, w.bucket)));
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
