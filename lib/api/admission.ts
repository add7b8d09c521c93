/**
 * Admission batching (group commit, issue 9): calls that arrive while a batch is being decided wait in a bounded
 * in-process queue and are decided together by the next call of the database function admit_batch (migration 0009): one
 * statement, one round trip. It locks each (key, window) counter row once per batch, assigns the calls to it in arrival
 * order, and writes counters, events and daily aggregates. The row locks keep limits exact across processes; every call
 * is committed before its promise resolves.
 */
import type postgres from "postgres";
import { ApiError } from "./errors";
import type { AdmissionCall, LimitOutcome } from "./limits";
import type { Window } from "./windows";

export interface BatchOptions {
  maxBatch: number; // calls decided by one transaction
  maxQueue: number; // calls waiting behind the transactions in flight; more are refused at once
  /** Admission batches in flight at once (default 1); more overlap round trips, the row locks keep them exact. */
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
// Arrays of dates and times go as text[]: drizzle's postgres-js driver replaces their array serializers with identity;
// booleans too (postgres.js types a boolean array parameter as boolean).
const iso = (d: Date) => d.toISOString();

/**
 * Decides and records one batch in one round trip: admit_batch (migration 0009) locks the batch's counter rows in sorted
 * order, decides the calls in arrival order, writes counters, events and daily aggregates, and answers the outcomes in
 * input order. A single statement is its own transaction: committed before this resolves, nothing written when it throws.
 */
export async function runBatch(sql: postgres.Sql | postgres.TransactionSql, calls: AdmissionCall[]): Promise<LimitOutcome[]> {
  // The batch's distinct counter rows ("slots"); each call names its burst and quota slot by 1-based index.
  const slots = new Map<string, number>();
  const slotKeys: string[] = [];
  const slotBuckets: string[] = [];
  const slotStarts: string[] = [];
  const slot = (keyId: string, w: Window) => {
    const start = iso(w.start);
    const id = `${keyId}|${w.bucket}|${start}`;
    let i = slots.get(id);
    if (i === undefined) {
      i = slotKeys.push(keyId);
      slotBuckets.push(w.bucket);
      slotStarts.push(start);
      slots.set(id, i);
    }
    return i;
  };
  const burstSlots = calls.map((c) => slot(c.m.keyId, c.burst));
  const quotaSlots = calls.map((c) => slot(c.m.keyId, c.quota));
  const rows = await sql<{ limited: "burst" | "quota" | null; status: number; burst_used: number; quota_used: number }[]>`
    select limited, status, burst_used, quota_used from admit_batch(
      ${slotKeys}::text[], ${slotBuckets}::text[], ${slotStarts}::text[]::timestamptz[],
      ${calls.map((c) => c.m.requestId)}::text[], ${calls.map((c) => c.m.keyId)}::text[], ${calls.map((c) => c.m.accountId)}::uuid[],
      ${calls.map((c) => c.m.endpointId)}::text[], ${calls.map((c) => c.status)}::int[], ${calls.map((c) => c.errorCode)}::text[],
      ${calls.map((c) => c.m.latencyMs)}::float8[], ${calls.map((c) => iso(c.m.now))}::text[]::timestamptz[], ${calls.map((c) => (c.record ? "t" : "f"))}::text[]::bool[],
      ${burstSlots}::int[], ${calls.map((c) => c.burst.limit)}::int[], ${quotaSlots}::int[], ${calls.map((c) => c.quota.limit)}::int[])`;
  if (rows.length !== calls.length) throw new Error(`admit_batch answered ${rows.length} outcomes for ${calls.length} calls`);
  return rows.map((r) => ({ limited: r.limited, status: r.status, burstUsed: r.burst_used, quotaUsed: r.quota_used }));
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
