/**
 * Admission batching (group commit, issue 9): calls that arrive while a batch is being decided wait in a bounded
 * in-process queue and are decided together by the next transaction. Each (key, window) counter row is locked once per
 * batch, the calls are assigned to it in arrival order, and events and daily aggregates are written by one statement.
 * The row locks keep limits exact across processes; every call is committed before its promise resolves.
 */
import type postgres from "postgres";
import { ApiError } from "./errors";
import { addToDaily, decideBatch, type AdmissionCall, type LimitOutcome } from "./limits";

export interface BatchOptions {
  maxBatch: number; // calls decided by one transaction
  maxQueue: number; // calls waiting behind the transactions in flight; more are refused at once
  /** Admission transactions in flight at once (default 1); more overlap round trips, the row locks keep them exact. */
  maxInFlight?: number;
}

interface Pending {
  call: AdmissionCall;
  resolve: (o: LimitOutcome) => void;
  reject: (e: unknown) => void;
}

const DEADLOCK = "40P01";
const unavailable = (cause?: unknown, message = "The service's store is unreachable; retry shortly.") => {
  const e = new ApiError("data_source_unavailable", message, { "retry-after": "5" });
  if (cause !== undefined) (e as { cause?: unknown }).cause = cause;
  return e;
};
// Arrays of dates and times go as text[]: drizzle's postgres-js driver replaces their array serializers with identity.
const counterKey = (keyId: string, bucket: string, start: string) => `${keyId}|${bucket}|${start}`;

/** Decides and records one batch in one transaction; throws (and writes nothing) when any statement fails. */
export async function runBatch(sql: postgres.Sql, calls: AdmissionCall[]): Promise<LimitOutcome[]> {
  const windows = new Map<string, [string, string, string]>();
  for (const c of calls) {
    for (const w of [c.burst, c.quota]) {
      const start = w.start.toISOString();
      windows.set(counterKey(c.m.keyId, w.bucket, start), [c.m.keyId, w.bucket, start]);
    }
  }
  // Sorted so that batches in different processes lock shared rows in the same order.
  const rows = [...windows.values()].sort((a, b) => (a.join("|") < b.join("|") ? -1 : 1));
  return sql.begin(async (tx) => {
    // A no-op upsert creates missing rows and locks every row, answering the latest committed count.
    const locked = await tx`
      insert into usage_counters as c (key_id, bucket, window_start, count)
      select k, b, s, 0 from unnest(${rows.map((r) => r[0])}::text[], ${rows.map((r) => r[1])}::text[], ${rows.map((r) => r[2])}::text[]::timestamptz[]) with ordinality as u(k, b, s, i)
      order by i
      on conflict (key_id, bucket, window_start) do update set count = c.count
      returning key_id, bucket, window_start, count`;
    const prior = new Map<string, number>();
    for (const r of locked) prior.set(counterKey(r.key_id, r.bucket, new Date(r.window_start).toISOString()), r.count);
    const d = decideBatch(calls, prior);
    const changed = [...d.counters].filter(([k, n]) => prior.get(k) !== n).map(([k, n]) => [...windows.get(k)!, n] as const);
    const ev = d.events;
    const dy = d.daily;
    await tx`
      with counters as (
        update usage_counters c set count = v.n
        from unnest(${changed.map((r) => r[0])}::text[], ${changed.map((r) => r[1])}::text[], ${changed.map((r) => r[2])}::text[]::timestamptz[], ${changed.map((r) => r[3])}::int[]) as v(k, b, s, n)
        where c.key_id = v.k and c.bucket = v.b and c.window_start = v.s
      ), events as (
        insert into usage_events (request_id, key_id, account_id, endpoint_id, status, error_code, latency_ms, created_at)
        select * from unnest(${ev.map((e) => e.requestId)}::text[], ${ev.map((e) => e.keyId)}::text[], ${ev.map((e) => e.accountId)}::uuid[],
          ${ev.map((e) => e.endpointId)}::text[], ${ev.map((e) => e.status)}::int[], ${ev.map((e) => e.errorCode)}::text[],
          ${ev.map((e) => e.latencyMs)}::real[], ${ev.map((e) => e.createdAt)}::text[]::timestamptz[])
      )
      insert into usage_daily as d (key_id, account_id, day, endpoint_id, calls, ok_calls, client_errors, server_errors, latency_ms_sum)
      select * from unnest(${dy.map((r) => r.keyId)}::text[], ${dy.map((r) => r.accountId)}::uuid[], ${dy.map((r) => r.day)}::text[]::date[],
        ${dy.map((r) => r.endpointId)}::text[], ${dy.map((r) => r.calls)}::int[], ${dy.map((r) => r.ok)}::int[],
        ${dy.map((r) => r.client)}::int[], ${dy.map((r) => r.server)}::int[], ${dy.map((r) => r.latencyMsSum)}::float8[])
      ${addToDaily(tx)}`;
    return d.outcomes;
  }) as Promise<LimitOutcome[]>;
}

export class AdmissionBatcher {
  private queue: Pending[] = [];
  private running = 0;
  /** Transactions run so far (for tests and the bench: calls per batch = admitted calls / batches). */
  batches = 0;

  constructor(private sql: postgres.Sql, private opts: BatchOptions) {}

  /** Resolves once the call is decided and committed; rejects with data_source_unavailable when its batch fails or the queue is full. */
  admit(call: AdmissionCall): Promise<LimitOutcome> {
    if (this.running >= (this.opts.maxInFlight ?? 1) && this.queue.length >= this.opts.maxQueue) return Promise.reject(unavailable(undefined, "The service is at capacity; retry shortly."));
    return new Promise((resolve, reject) => {
      this.queue.push({ call, resolve, reject });
      if (this.running < (this.opts.maxInFlight ?? 1)) void this.drain();
    });
  }

  private async drain() {
    this.running++;
    while (this.queue.length) {
      const batch = this.queue.splice(0, this.opts.maxBatch);
      this.batches++;
      try {
        const calls = batch.map((p) => p.call);
        const out = await runBatch(this.sql, calls).catch((err) => {
          if ((err as { code?: string }).code === DEADLOCK) return runBatch(this.sql, calls); // another process locked in a different order: once more
          throw err;
        });
        batch.forEach((p, i) => p.resolve(out[i]));
      } catch (err) {
        const failed = unavailable(err);
        for (const p of batch) p.reject(failed);
      }
    }
    this.running--;
  }
}
