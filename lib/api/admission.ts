/**
 * Admission batching (group commit): calls that arrive while a batch is being decided wait in a bounded
 * in-process queue and are decided together by the next call of the database function admit_batch
 * (db/functions/admit_batch.sql): one statement, one round trip. It locks each (key, window) counter row once per batch,
 * assigns the calls to it in arrival order, and writes counters, events and daily aggregates. The row locks keep limits exact across processes; every call
 * is committed before its promise resolves.
 */
import type postgres from "postgres";
import { arrayLiteral } from "../db/array-literal";
import { reportStoreOutcome } from "../db/store-status";
import { BoundedMemo } from "../util/bounded-memo";
import { metrics } from "../metrics/registry";
import { ApiError } from "./errors";
import type { AdmissionCall, LimitOutcome } from "./limits";
import type { Window } from "../limits/windows";

export interface BatchOptions {
  maxBatch: number; // calls decided by one transaction
  maxQueue: number; // calls waiting behind the transactions in flight; more are refused at once
  /** Admission batches in flight at once (default 1); more overlap round trips, the row locks keep them exact. */
  maxInFlight?: number;
  /** Longest a call waits for its decision, queued or in flight (DB_DEADLINE_MS); past it the call is refused with 503. */
  deadlineMs?: number;
  /**
   * Gather window (ADMISSION_GATHER_US; absent or 0: off): a batch starts no sooner than this long after the previous
   * one started, unless gatherCalls calls wait; calls that arrive meanwhile join it. A call arriving after a quiet spell
   * goes at once; under load each batch carries more calls, and its fixed PostgreSQL cost is shared by them.
   */
  gatherUs?: number;
  /**
   * Calls that make a batch full enough to send without waiting out the gather window (default 16, at most maxBatch):
   * past about 16 calls a batch's fixed cost is a small part of each call's, and at saturation waiting only idles.
   */
  gatherCalls?: number;
}

interface Pending {
  call: AdmissionCall;
  resolve: (o: LimitOutcome) => void;
  reject: (e: unknown) => void;
  /** performance.now() past which the call is answered 503 whatever its batch does. */
  deadline: number;
  /** performance.now() when it was queued (admission_wait_seconds). */
  queued: number;
}

const DEADLOCK = "40P01";
const unavailable = (cause?: unknown, message = "The service's store is unreachable; retry shortly.") => {
  const e = new ApiError("data_source_unavailable", message, { "retry-after": "5" });
  if (cause !== undefined) (e as { cause?: unknown }).cause = cause;
  return e;
};
/** ISO strings of recent instants: the calls of one batch share their windows' starts and, mostly, their milliseconds. */
const isoByMs = new BoundedMemo<number, string>(1024);
const toIso = (ms: number) => new Date(ms).toISOString();
const iso = (ms: number) => isoByMs.get(ms, toIso);

/**
 * Decides and records one batch in one round trip: admit_batch (db/functions/admit_batch.sql) locks the batch's counter rows in sorted
 * order, decides the calls in arrival order, writes counters, events and daily aggregates, and answers the outcomes in
 * input order. A single statement is its own transaction: committed before this resolves, nothing written when it throws.
 * The arrays go as literals (lib/db/array-literal.ts), one text parameter each.
 */
export async function runBatch(
  sql: postgres.Sql | postgres.TransactionSql,
  calls: AdmissionCall[],
): Promise<LimitOutcome[]> {
  // The batch's distinct counter rows ("slots"); each call names its burst and quota slot by 1-based index.
  const slots = new Map<string, number>();
  const slotKeys: string[] = [];
  const slotBuckets: string[] = [];
  const slotStarts: string[] = [];
  const slot = (keyId: string, w: Window) => {
    const start = w.start.getTime();
    const id = `${keyId}|${w.bucket}|${start}`;
    let i = slots.get(id);
    if (i === undefined) {
      i = slotKeys.push(keyId);
      slotBuckets.push(w.bucket);
      slotStarts.push(iso(start));
      slots.set(id, i);
    }
    return i;
  };
  const n = calls.length;
  const requestIds = new Array<string>(n),
    keyIds = new Array<string>(n),
    accountIds = new Array<string>(n),
    endpointIds = new Array<string>(n),
    paths = new Array<string | null>(n),
    sizes = new Array<number | null>(n),
    burstSizes = new Array<number | null>(n),
    quotaSizes = new Array<number | null>(n),
    quotaChecked = new Array<boolean>(n);
  const statuses = new Array<number>(n),
    errorCodes = new Array<string | null>(n),
    latencies = new Array<number>(n),
    createdAt = new Array<string>(n);
  const record = new Array<boolean>(n),
    burstSlots = new Array<number>(n),
    burstLimits = new Array<number>(n),
    quotaSlots = new Array<number>(n),
    quotaLimits = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const c = calls[i];
    requestIds[i] = c.m.requestId;
    keyIds[i] = c.m.keyId;
    accountIds[i] = c.m.accountId;
    endpointIds[i] = c.m.endpointId;
    paths[i] = c.m.path ?? null;
    sizes[i] = c.m.bytes ?? null;
    burstSizes[i] = c.refusedBytes?.burst ?? null;
    quotaSizes[i] = c.refusedBytes?.quota ?? null;
    statuses[i] = c.status;
    errorCodes[i] = c.errorCode;
    latencies[i] = c.m.latencyMs;
    createdAt[i] = iso(c.m.now.getTime());
    record[i] = c.record;
    burstSlots[i] = slot(c.m.keyId, c.burst);
    burstLimits[i] = c.burst.limit;
    quotaSlots[i] = slot(c.m.keyId, c.quota);
    quotaLimits[i] = c.quota.limit;
    quotaChecked[i] = c.quotaChecked ?? true;
  }
  const messages = messageArrays(calls);
  const a = arrayLiteral;
  const rows = await sql<
    { limited: "burst" | "quota" | null; status: number; burst_used: number; quota_used: number }[]
  >`
    select limited, status, burst_used, quota_used from admit_batch(
      ${a(slotKeys)}::text[], ${a(slotBuckets)}::text[], ${a(slotStarts)}::timestamptz[],
      ${a(requestIds)}::text[], ${a(keyIds)}::text[], ${a(accountIds)}::uuid[], ${a(endpointIds)}::text[], ${a(statuses)}::int[],
      ${a(errorCodes)}::text[], ${a(latencies)}::float8[], ${a(createdAt)}::timestamptz[], ${a(record)}::bool[],
      ${a(burstSlots)}::int[], ${a(burstLimits)}::int[], ${a(quotaSlots)}::int[], ${a(quotaLimits)}::int[],
      ${a(paths)}::text[], ${a(sizes)}::int[], ${a(burstSizes)}::int[], ${a(quotaSizes)}::int[], ${a(quotaChecked)}::bool[],
      ${a(messages.answer)}::text[], ${a(messages.burst)}::text[], ${a(messages.quota)}::text[])`;
  if (rows.length !== calls.length)
    throw new Error(`admit_batch answered ${rows.length} outcomes for ${calls.length} calls`);
  return rows.map((r) => ({ limited: r.limited, status: r.status, burstUsed: r.burst_used, quotaUsed: r.quota_used }));
}

/** The error messages each call is recorded with: its answer's, and each window's refusal's (lib/api/logged-error.ts). */
const messageArrays = (calls: AdmissionCall[]) => ({
  answer: calls.map((c) => c.m.errorMessage ?? null),
  burst: calls.map((c) => c.refusedMessages?.burst ?? null),
  quota: calls.map((c) => c.refusedMessages?.quota ?? null),
});

/** A batch this full goes without waiting out the gather window (BatchOptions.gatherCalls). */
const DEFAULT_GATHER_CALLS = 16;

/** How often waiting calls are checked against their deadlines (one timer per batcher, only while calls wait). */
const SWEEP_MS = 50;

export class AdmissionBatcher {
  private queue: Pending[] = [];
  private inFlight = new Set<Pending[]>();
  private running = 0;
  private sweeper: NodeJS.Timeout | undefined;
  /** performance.now() when the latest batch started (the gather window counts from it). */
  private lastSent = -Infinity;
  /** End the gather waits early (gatherCalls calls wait). */
  private wakers = new Set<() => void>();
  /** Transactions run so far (for tests and the bench: calls per batch = admitted calls / batches). */
  batches = 0;

  constructor(
    private sql: postgres.Sql,
    private opts: BatchOptions,
  ) {}

  /**
   * Resolves once the call is decided and committed; rejects with data_source_unavailable when its batch fails, the
   * queue is full, or its deadline passes first (its batch may still commit it: metered, never answered 2xx).
   */
  admit(call: AdmissionCall): Promise<LimitOutcome> {
    if (this.running >= (this.opts.maxInFlight ?? 1) && this.queue.length >= this.opts.maxQueue) {
      metrics.admission.refused("queue_full");
      return Promise.reject(unavailable(undefined, "The service is at capacity; retry shortly."));
    }
    return new Promise((resolve, reject) => {
      const queued = performance.now();
      const deadline = this.opts.deadlineMs === undefined ? Infinity : queued + this.opts.deadlineMs;
      this.queue.push({ call, resolve, reject, deadline, queued });
      if (deadline !== Infinity && !this.sweeper) {
        this.sweeper = setInterval(() => this.sweep(), Math.min(SWEEP_MS, this.opts.deadlineMs ?? SWEEP_MS));
        this.sweeper.unref();
      }
      if (this.running < (this.opts.maxInFlight ?? 1)) void this.drain();
      else if (this.wakers.size && this.queue.length >= this.enough()) for (const wake of this.wakers) wake();
    });
  }

  /**
   * The rest of the gather window, to wait out unless gatherCalls calls come; null when it is time to send (then the
   * batch is taken at once, in the same tick as the call that started the drain).
   */
  private gather(): Promise<void> | null {
    const left = this.lastSent + (this.opts.gatherUs ?? 0) / 1000 - performance.now();
    if (left <= 0 || this.queue.length >= this.enough()) return null;
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, Math.max(1, Math.round(left))); // Node's timers count whole milliseconds
      this.wakers.add(wake);
    });
  }

  private enough(): number {
    return Math.min(this.opts.maxBatch, this.opts.gatherCalls ?? DEFAULT_GATHER_CALLS);
  }

  /** Refuses the calls whose deadline passed, queued or in flight; stops itself when nothing waits. */
  private sweep(): void {
    const now = performance.now();
    let expired = 0;
    const refuse = (p: Pending) => {
      if (p.deadline > now) return true;
      expired++;
      p.reject(unavailable(undefined, "The service's store did not answer in time; retry shortly."));
      p.deadline = Infinity; // answered; the batch's own answer is ignored
      return false;
    };
    this.queue = this.queue.filter(refuse);
    for (const batch of this.inFlight) for (const p of batch) if (p.deadline !== Infinity) refuse(p);
    if (expired) {
      reportStoreOutcome(this.sql, "admission", false);
      metrics.admission.refused("deadline", expired);
      metrics.db.deadline("admission", expired);
    }
    if (this.queue.length === 0 && this.inFlight.size === 0) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  private async drain() {
    this.running++;
    while (this.queue.length) {
      const wait = this.gather();
      if (wait) {
        await wait;
        if (!this.queue.length) break; // another batch in flight took them meanwhile
      }
      const batch = this.queue.splice(0, this.opts.maxBatch);
      this.lastSent = performance.now();
      this.batches++;
      this.inFlight.add(batch);
      const sent = performance.now();
      try {
        const calls = batch.map((p) => p.call);
        const out = await runBatch(this.sql, calls).catch((err) => {
          if ((err as { code?: string }).code === DEADLOCK) return runBatch(this.sql, calls); // another process locked in a different order: once more
          throw err;
        });
        const decided = performance.now();
        for (const [i, p] of batch.entries()) {
          p.resolve(out[i]);
          metrics.admission.waited((decided - p.queued) / 1000);
        }
        metrics.admission.batch(batch.length, (decided - sent) / 1000);
        reportStoreOutcome(this.sql, "admission", true);
      } catch (err) {
        const failed = unavailable(err);
        for (const p of batch) p.reject(failed);
        metrics.admission.refused("store_error", batch.length);
        reportStoreOutcome(this.sql, "admission", false);
      } finally {
        this.inFlight.delete(batch);
      }
    }
    this.running--;
  }
}
