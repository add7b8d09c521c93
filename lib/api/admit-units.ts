/**
 * Metering several calls in one row: the database function admit_units (db/functions/admit_units.sql) grants each call as many of
 * its units as its key's quota window has left (the account's row deciding, as admit_batch), in call order, and writes
 * one usage_events row with `units` for the granted ones (plus one 403 row for any refused), counters and daily
 * aggregates in one statement. The live stream meters each stream's events of a delivery round this way.
 */
import type postgres from "postgres";
import { arrayLiteral as a } from "../db/array-literal";
import type { Window } from "../limits/windows";

export interface UnitsCall {
  requestId: string;
  keyId: string;
  accountId: string;
  endpointId: string;
  now: Date;
  /** Calls asked for (at least 1). */
  units: number;
  quota: Window;
}

export interface UnitsOutcome {
  /** Units granted (0 to `units`): the calls within the quota, in order. */
  granted: number;
  /** The quota window's use after this call. */
  quotaUsed: number;
}

/** Decides and records the calls in one round trip; committed when it resolves, nothing written when it throws. */
export async function admitUnits(sql: postgres.Sql, calls: readonly UnitsCall[]): Promise<UnitsOutcome[]> {
  if (!calls.length) return [];
  const rows = await sql<{ granted: number; quota_used: number }[]>`
    select granted, quota_used from admit_units(
      ${a(calls.map((c) => c.requestId))}::text[], ${a(calls.map((c) => c.keyId))}::text[],
      ${a(calls.map((c) => c.accountId))}::uuid[], ${a(calls.map((c) => c.endpointId))}::text[],
      ${a(calls.map((c) => c.now.toISOString()))}::timestamptz[], ${a(calls.map((c) => c.units))}::int[],
      ${a(calls.map((c) => c.quota.bucket))}::text[], ${a(calls.map((c) => c.quota.start.toISOString()))}::timestamptz[],
      ${a(calls.map((c) => c.quota.limit))}::int[])`;
  if (rows.length !== calls.length)
    throw new Error(`admit_units answered ${rows.length} outcomes for ${calls.length} calls`);
  return rows.map((r) => ({ granted: r.granted, quotaUsed: r.quota_used }));
}
