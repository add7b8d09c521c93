/**
 * Burst and quota enforcement plus metering (docs/api-contract.md §4). Calls are decided in batches (admission.ts) by
 * the database function admit_batch (db/functions/admit_batch.sql): the counter rows are locked, the batch's calls assigned to them
 * in arrival order, and the row lock makes concurrent callers on any number of processes admit exactly min(N, limit).
 */
import type postgres from "postgres";
import { sql as drizzleSql } from "drizzle-orm";
import type { Db } from "../db/client";
import type { Window } from "../limits/windows";

export interface Metered {
  requestId: string;
  keyId: string;
  accountId: string;
  endpointId: string;
  /** The requested path and query as the log keeps them (lib/api/logged-path.ts); null where there is none to keep. */
  path?: string | null;
  /** The answer's body in bytes (0 for HEAD); null where the answer is not known yet. */
  bytes?: number | null;
  /** An error answer's message as the log keeps it (lib/api/logged-error.ts); null on a success or where unknown. */
  errorMessage?: string | null;
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

/** The daily aggregate's upsert: the inserted calls added to their key × UTC day × endpoint row. */
export const addToDaily = (sql: postgres.Sql | postgres.TransactionSql) => sql`
  on conflict (key_id, day, endpoint_id) do update set calls = d.calls + excluded.calls, ok_calls = d.ok_calls + excluded.ok_calls,
    client_errors = d.client_errors + excluded.client_errors, server_errors = d.server_errors + excluded.server_errors,
    latency_ms_sum = d.latency_ms_sum + excluded.latency_ms_sum`;

/**
 * One call to be decided and recorded (by admit_batch: burst takes one unit per admitted call, quota one per admitted 2xx,
 * neither past its limit). `status`/`errorCode` are what the handler produced; only a 2xx consumes quota.
 * With `record` false (calls that touch account state) nothing is metered yet: `settle` does it after the handler.
 */
export interface AdmissionCall {
  m: Metered;
  burst: Window;
  quota: Window;
  status: number;
  errorCode: string | null;
  record: boolean;
  /** The answer's size should admission refuse the call (m.bytes is its size if admitted); recorded with the event. */
  refusedBytes?: { burst: number; quota: number };
  /** The refusal's message should admission refuse the call (m.errorMessage is the answer's if admitted). */
  refusedMessages?: { burst: string | null; quota: string | null };
  /**
   * False for a refusal decided before the quota (inactive key, body too large, licensing, idempotency): it takes its
   * burst unit and is answered 429 once the minute is spent, but the quota neither refuses nor counts it. Default true.
   */
  quotaChecked?: boolean;
}

/**
 * The rate-limit state a settled call's answer reports: read from the counter rows by the same statement ("counters":
 * the caller builds its headers from what settle answers), given (the caller's headers use these), or none (the answer
 * has no rate-limit headers, so the event keeps none).
 */
export type SettledLimits = "counters" | { burstUsed: number; quotaUsed: number } | null;

/** A call decided outside the admission batch, to be recorded: what it answered, its windows, and their state. */
export interface Settlement {
  m: Metered;
  status: number;
  errorCode: string | null;
  burst: Window;
  quota: Window;
  /** Default "counters". */
  limits?: SettledLimits;
}

/**
 * Records a call that was decided outside the admission batch: a state-touching call after its handler, or the portal's
 * webhook twins (lib/server/webhook-metering.ts). Answers the windows' current use, for the headers.
 */
export async function settle(
  sql: postgres.Sql,
  { m, status, errorCode, burst, quota, limits = "counters" }: Settlement,
): Promise<{ burstUsed: number; quotaUsed: number }> {
  const given = limits !== null && limits !== "counters" ? limits : null;
  const rows = await sql`
    with used as (
      select (select count from usage_counters where key_id = ${m.keyId} and bucket = ${burst.bucket} and window_start = ${burst.start.toISOString()}::timestamptz) as burst_used,
        (select max(count) from usage_counters where key_id in (${m.keyId}, quota_counter_key(${m.keyId})) and bucket = ${quota.bucket} and window_start = ${quota.start.toISOString()}::timestamptz) as quota_used
    ), event as (
      insert into usage_events (request_id, key_id, account_id, endpoint_id, path, status, error_code, latency_ms, created_at,
        response_bytes, burst_remaining, burst_limit, quota_remaining, quota_limit, error_message)
      select ${m.requestId}, ${m.keyId}, ${m.accountId}::uuid, ${m.endpointId}, ${m.path ?? null}, ${status}, ${errorCode}, ${m.latencyMs}, ${m.now.toISOString()}::timestamptz,
        ${m.bytes ?? null}::int,
        case when ${limits !== null}::boolean then greatest(0, ${burst.limit}::int - coalesce(${given?.burstUsed ?? null}::int, used.burst_used, 0)) end,
        case when ${limits !== null}::boolean then ${burst.limit}::int end,
        case when ${limits !== null}::boolean then greatest(0, ${quota.limit}::int - coalesce(${given?.quotaUsed ?? null}::int, used.quota_used, 0)) end,
        case when ${limits !== null}::boolean then ${quota.limit}::int end,
        ${status >= 200 && status < 300 ? null : (m.errorMessage ?? null)}
      from used
    )
    insert into usage_daily as d (key_id, account_id, day, endpoint_id, calls, ok_calls, client_errors, server_errors, latency_ms_sum)
    values (${m.keyId}, ${m.accountId}::uuid, ${day(m.now)}::date, ${m.endpointId}, 1, ${status >= 200 && status < 300 ? 1 : 0},
      ${status >= 400 && status < 500 ? 1 : 0}, ${status >= 500 ? 1 : 0}, ${m.latencyMs})
    ${addToDaily(sql)}
    returning (select burst_used from used) as burst_used, (select quota_used from used) as quota_used`;
  return { burstUsed: rows[0]?.burst_used ?? 0, quotaUsed: rows[0]?.quota_used ?? 0 };
}

/**
 * Takes one quota unit inside the caller's transaction, only if one is left; null when the quota is spent (the caller
 * then rolls back whatever its handler wrote). Used by calls that change account state, so that only successful calls
 * consume quota and concurrent callers still get exactly min(N, limit). The quota row is the account's per environment.
 */
export async function takeQuota(tx: { execute: Db["execute"] }, keyId: string, quota: Window): Promise<number | null> {
  // The account's row (per environment) decides, never behind the key's own row, which tallies the key's share (as admit_batch).
  const start = quota.start.toISOString();
  const rows = await tx.execute<{ count: number }>(drizzleSql`
    with own_now as (
      select coalesce((select count from usage_counters where key_id = ${keyId} and bucket = ${quota.bucket} and window_start = ${start}::timestamptz), 0) as n
    ), account as (
      insert into usage_counters as c (key_id, bucket, window_start, count)
      select quota_counter_key(${keyId}), ${quota.bucket}, ${start}::timestamptz, n + 1 from own_now where n < ${quota.limit}::int
      on conflict (key_id, bucket, window_start) do update set count = greatest(c.count, excluded.count - 1) + 1
        where greatest(c.count, excluded.count - 1) < ${quota.limit}::int
      returning c.count
    ), own as (
      insert into usage_counters as c (key_id, bucket, window_start, count)
      select ${keyId}, ${quota.bucket}, ${start}::timestamptz, 1 from account
      on conflict (key_id, bucket, window_start) do update set count = c.count + 1
    )
    select count from account`);
  return rows.length ? Number(rows[0].count) : null;
}
