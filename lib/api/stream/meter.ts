/**
 * The live stream's metering: each stream's events of a round are one call of that many units (admit_units, migration
 * 0021), CALLS_PER_BATCH streams a round trip. Events sent on a known budget are metered in the background, in the
 * order sent; the others are metered first and only the granted ones sent. A stream whose quota is spent is sent its
 * granted events, then ends with `plan_limit_exceeded`; when metering fails nothing unmetered is sent and the stream
 * ends with `data_source_unavailable` (the client resumes with Last-Event-ID).
 */
import { quotaWindow, type Window } from "../../limits/windows";
import { errorFields, log } from "../../log";
import type { UnitsCall, UnitsOutcome } from "../admit-units";
import type { Caller } from "../credentials";
import type { ApiError } from "../errors";
import type { Budgets, Decision } from "./budget";
import { quotaSpent, storeDown } from "./end-reasons";
import type { Frame, Joined } from "./frames";

export const STREAM_ENDPOINT_ID = "GET /api/v1/stream";
/** Streams metered per round trip (each stream's events of a round are one call of that many units). */
const CALLS_PER_BATCH = 1000;

/** A stream's frames of one round, waiting to be metered (sent already, or to be sent once admitted). */
export interface Batch<S> {
  s: S;
  frames: Frame[];
}

/** What the meter reads of a stream. */
export interface MeteredStream {
  readonly caller: Caller;
  readonly requestId: string;
  readonly closed: boolean;
}

/** Where granted events go, and how a refused stream ends. */
export interface MeterSink<S> {
  send(s: S, frames: Frame[], joined: Joined): void;
  end(s: S, error: ApiError): void;
}

export type AdmitUnits = (calls: readonly UnitsCall[]) => Promise<UnitsOutcome[]>;

export class StreamMeter<S extends MeteredStream> {
  /** Events sent on a known budget, waiting to be metered. */
  private queue: Batch<S>[] = [];
  private running = false;
  private done: Promise<void> = Promise.resolve();

  constructor(
    private readonly admit: AdmitUnits,
    private readonly budgets: Budgets,
    private readonly sink: MeterSink<S>,
  ) {}

  /** Events already sent on a budget: metered by `flush`. */
  sent(batch: Batch<S>): void {
    this.queue.push(batch);
  }

  /** Meters the queued events once this turn's writes are on their way (they run in the microtasks queued before). */
  flush(): void {
    if (this.queue.length) void this.background();
  }

  /**
   * Meters events before they are sent (`waiting`, emptied as it goes) and sends the granted ones; after the events
   * sent earlier on a budget, which could otherwise lose the quota they used.
   */
  async first(waiting: Batch<S>[], joined: Joined): Promise<void> {
    if (waiting.length && this.running) await this.done;
    while (waiting.length) {
      const chunk = waiting.splice(0, CALLS_PER_BATCH).filter((b) => !b.s.closed);
      if (!chunk.length) continue;
      let granted: number[];
      try {
        granted = await this.meter(chunk, false);
      } catch {
        for (const b of [...chunk, ...waiting]) this.sink.end(b.s, storeDown());
        return;
      }
      chunk.forEach((b, j) => {
        if (granted[j] === b.frames.length) this.sink.send(b.s, b.frames, joined); // fewer: sent by meter, then ended
      });
    }
  }

  /** Meters the queue in the order sent, one chunk at a time; resolves when it is empty. */
  private background(): Promise<void> {
    if (this.running) return this.done;
    this.running = true;
    this.done = (async () => {
      try {
        await new Promise((resolve) => setImmediate(resolve));
        while (this.queue.length) {
          const chunk = this.queue.splice(0, CALLS_PER_BATCH);
          try {
            await this.meter(chunk, true);
          } catch {
            for (const b of chunk) this.sink.end(b.s, storeDown());
          }
        }
      } finally {
        this.running = false;
      }
    })();
    return this.done;
  }

  /**
   * One admit_units for a chunk of batches: each event one unit of the day's quota, each batch one usage row with its
   * count. Refreshes the budgets from the decisions and ends the streams the quota refused. `sent`: the events were sent
   * already (they leave the budgets' unmetered count). Answers how many of each batch's events were granted.
   */
  private async meter(chunk: Batch<S>[], sent: boolean): Promise<number[]> {
    const now = new Date();
    const quotas = new Map<string, Window>();
    const callers = chunk.map((b) => b.s.caller);
    const calls: UnitsCall[] = chunk.map(({ s, frames }, j) => {
      const c = callers[j];
      let quota = quotas.get(c.keyId);
      if (!quota) quotas.set(c.keyId, (quota = quotaWindow("B", c.plan, now)));
      const requestId = `${s.requestId}:${frames[0].id}+${frames.length}`;
      return {
        requestId,
        keyId: c.keyId,
        accountId: c.accountId,
        endpointId: STREAM_ENDPOINT_ID,
        now,
        units: frames.length,
        quota,
      };
    });
    let outcomes: UnitsOutcome[];
    try {
      outcomes = await this.admit(calls);
    } catch (err) {
      log.error("stream metering failed", errorFields(err));
      throw err;
    }
    const decisions: Decision[] = [];
    chunk.forEach(({ s, frames }, j) => {
      const { quota } = calls[j];
      if (sent) this.budgets.metered(callers[j], frames.length);
      const o = outcomes[j];
      decisions.push({ caller: callers[j], quota, used: o.quotaUsed });
      if (o.granted < frames.length && !s.closed) {
        // Admitted events are sent before the stream ends.
        if (!sent) this.sink.send(s, frames.slice(0, o.granted), new Map());
        this.sink.end(s, quotaSpent(callers[j].plan, quota.limit));
      }
    });
    this.budgets.decided(decisions);
    return outcomes.map((o) => o.granted);
  }
}
