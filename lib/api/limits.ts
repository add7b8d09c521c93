/**
 * Burst and quota enforcement plus metering in one database round trip (CONTRACT §4).
 * Counters are fixed-window rows incremented by `insert … on conflict do update … where count < limit`: the row lock
 * makes concurrent callers on any number of processes admit exactly min(N, limit).
 */
import type postgres from "postgres";
import { sql as drizzleSql } from "drizzle-orm";
import type { Db } from "../db/client";
import type { Window } from "./windows";

export interface Metered {
  requestId: string;
  keyId: string;
  accountId: string;
  endpointId: string;
  latencyMs: number;
  now: Date;
}

export interface LimitOutcome {
  limited: "burst" | "quota" | null;
  status: number;
  burstUsed: number;
  quotaUsed: number;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/** The daily aggregate's upsert: one call added to its key × UTC day × endpoint row. */
const addToDaily = (sql: postgres.Sql) => sql`
  on conflict (key_id, day, endpoint_id) do update set calls = d.calls + 1, ok_calls = d.ok_calls + excluded.ok_calls,
    client_errors = d.client_errors + excluded.client_errors, server_errors = d.server_errors + excluded.server_errors,
    latency_ms_sum = d.latency_ms_sum + excluded.latency_ms_sum`;

/**
 * Decides the call's fate and records it. `status`/`errorCode` are what the handler produced; only a 2xx consumes quota.
 * With `record` false (calls that touch account state) nothing is metered yet: `settle` does it after the handler.
 */
export async function admitAndRecord(
  sql: postgres.Sql,
  m: Metered,
  burst: Window,
  quota: Window,
  status: number,
  errorCode: string | null,
  record: boolean,
): Promise<LimitOutcome> {
  const countsQuota = status >= 200 && status < 300;
  const burstStart = burst.start.toISOString();
  const quotaStart = quota.start.toISOString();
  const rows = await sql`
    with burst as (
      insert into usage_counters as c (key_id, bucket, window_start, count)
      values (${m.keyId}, ${burst.bucket}, ${burstStart}::timestamptz, 1)
      on conflict (key_id, bucket, window_start) do update set count = c.count + 1 where c.count < ${burst.limit}::int
      returning c.count
    ), quota as (
      insert into usage_counters as c (key_id, bucket, window_start, count)
      select ${m.keyId}, ${quota.bucket}, ${quotaStart}::timestamptz, 1
      where ${countsQuota}::boolean and exists (select 1 from burst)
      on conflict (key_id, bucket, window_start) do update set count = c.count + 1 where c.count < ${quota.limit}::int
      returning c.count
    ), prior as (
      select
        (select count from usage_counters where key_id = ${m.keyId} and bucket = ${burst.bucket} and window_start = ${burstStart}::timestamptz) as burst_prior,
        (select count from usage_counters where key_id = ${m.keyId} and bucket = ${quota.bucket} and window_start = ${quotaStart}::timestamptz) as quota_prior
    ), decision as (
      select (select count from burst) as burst_count, (select count from quota) as quota_count, burst_prior, quota_prior,
        case
          when not exists (select 1 from burst) then 'burst'
          when ${countsQuota}::boolean and not exists (select 1 from quota) then 'quota'
          when not ${countsQuota}::boolean and coalesce(quota_prior, 0) >= ${quota.limit}::int then 'quota'
        end as limited
      from prior
    ), final as (
      select *, case limited when 'burst' then 429 when 'quota' then 403 else ${status}::int end as final_status,
        case limited when 'burst' then 'rate_limit_exceeded' when 'quota' then 'plan_limit_exceeded' else ${errorCode}::text end as final_code
      from decision
    ), event as (
      insert into usage_events (request_id, key_id, account_id, endpoint_id, status, error_code, latency_ms, created_at)
      select ${m.requestId}, ${m.keyId}, ${m.accountId}::uuid, ${m.endpointId}, final_status, final_code, ${m.latencyMs}::real, ${m.now.toISOString()}::timestamptz
      from final where ${record}::boolean
    ), daily as (
      insert into usage_daily as d (key_id, account_id, day, endpoint_id, calls, ok_calls, client_errors, server_errors, latency_ms_sum)
      select ${m.keyId}, ${m.accountId}::uuid, ${day(m.now)}::date, ${m.endpointId}, 1, (final_status between 200 and 299)::int,
        (final_status between 400 and 499)::int, (final_status >= 500)::int, ${m.latencyMs}::float8
      from final where ${record}::boolean
      ${addToDaily(sql)}
    )
    select limited, final_status, burst_count, quota_count, burst_prior, quota_prior from final`;
  const r = rows[0];
  return {
    limited: r.limited,
    status: r.final_status,
    // A refused call may have waited on the row lock: the statement's snapshot is stale, the limit is not.
    burstUsed: r.limited === "burst" ? burst.limit : (r.burst_count ?? r.burst_prior ?? burst.limit),
    quotaUsed: r.limited === "quota" ? quota.limit : (r.quota_count ?? r.quota_prior ?? 0),
  };
}

/**
 * Records a call that was decided outside `admitAndRecord`: refused before the limits (inactive key, pending licensing,
 * oversized body), or a state-touching call after its handler. Answers the windows' current use, for the headers.
 */
export async function settle(
  sql: postgres.Sql,
  m: Metered,
  status: number,
  errorCode: string | null,
  windows: { burst: Window; quota: Window },
): Promise<{ burstUsed: number; quotaUsed: number }> {
  const rows = await sql`
    with event as (
      insert into usage_events (request_id, key_id, account_id, endpoint_id, status, error_code, latency_ms, created_at)
      values (${m.requestId}, ${m.keyId}, ${m.accountId}::uuid, ${m.endpointId}, ${status}, ${errorCode}, ${m.latencyMs}, ${m.now.toISOString()}::timestamptz)
    )
    insert into usage_daily as d (key_id, account_id, day, endpoint_id, calls, ok_calls, client_errors, server_errors, latency_ms_sum)
    values (${m.keyId}, ${m.accountId}::uuid, ${day(m.now)}::date, ${m.endpointId}, 1, ${status >= 200 && status < 300 ? 1 : 0},
      ${status >= 400 && status < 500 ? 1 : 0}, ${status >= 500 ? 1 : 0}, ${m.latencyMs})
    ${addToDaily(sql)}
    returning (select count from usage_counters where key_id = ${m.keyId} and bucket = ${windows.burst.bucket} and window_start = ${windows.burst.start.toISOString()}::timestamptz) as burst_used,
      (select count from usage_counters where key_id = ${m.keyId} and bucket = ${windows.quota.bucket} and window_start = ${windows.quota.start.toISOString()}::timestamptz) as quota_used`;
  return { burstUsed: rows[0]?.burst_used ?? 0, quotaUsed: rows[0]?.quota_used ?? 0 };
}

/**
 * Takes one quota unit inside the caller's transaction, only if one is left; null when the quota is spent (the caller
 * then rolls back whatever its handler wrote). Used by calls that change account state, so that only successful calls
 * consume quota and concurrent callers still get exactly min(N, limit).
 */
export async function takeQuota(tx: { execute: Db["execute"] }, keyId: string, quota: Window): Promise<number | null> {
  const rows = await tx.execute<{ count: number }>(drizzleSql`
    insert into usage_counters as c (key_id, bucket, window_start, count)
    values (${keyId}, ${quota.bucket}, ${quota.start.toISOString()}::timestamptz, 1)
    on conflict (key_id, bucket, window_start) do update set count = c.count + 1 where c.count < ${quota.limit}::int
    returning c.count`);
  return rows.length ? Number(rows[0].count) : null;
}
