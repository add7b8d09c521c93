/**
 * The live stream's hub, one per process (docs/api-contract.md "Live stream"): it composes the row source
 * (./source.ts), the fan-out to the open streams (./fan-out.ts), their quota budgets and metering (./budget.ts,
 * ./meter.ts), the key re-checks (./key-checks.ts) and the concurrent-stream leases (../stream-leases.ts). Each round
 * derives and encodes each event once for every stream with the same filters (./frames.ts) and writes each stream its
 * round's events as one chunk.
 */
import type postgres from "postgres";
import type { StreamQuery } from "../../contract/stream";
import { errorFields, log } from "../../log";
import { metrics } from "../../metrics/registry";
import { admitUnits } from "../admit-units";
import type { Caller } from "../credentials";
import type { ApiError } from "../errors";
import { type LeaseOptions, type StreamLease, StreamLeases } from "../stream-leases";
import type { StreamPosition } from "../stream-position";
import { Budgets, type RoundWindows } from "./budget";
import { leaseLapsed, restarting, storeDown } from "./end-reasons";
import { FanOut, type Subscriber } from "./fan-out";
import { Derivations, isAfter, type Joined, type StoredRow, streamFilter } from "./frames";
import { KeyChecks, type Recheck } from "./key-checks";
import { type Batch, StreamMeter } from "./meter";
import { type SourceOptions, StreamSource } from "./source";
import type { OpenOptions, StreamOpener } from "./opener";

export interface HubOptions extends SourceOptions {
  leases?: LeaseOptions;
}

export class StreamHub implements StreamOpener {
  /** The key's open streams across every process (stream_leases, migration 0022). */
  readonly leases: StreamLeases;
  private readonly fanOut = new FanOut((s) => void this.release(s.lease));
  private readonly budgets = new Budgets();
  private readonly meter: StreamMeter<Subscriber>;
  private readonly source: StreamSource;
  private readonly checks: KeyChecks<Subscriber>;
  private nextId = 1;

  constructor(sql: postgres.Sql, options: HubOptions = {}) {
    const leaseOptions = options.leases ?? {};
    this.leases = new StreamLeases(sql, {
      ...leaseOptions,
      onLost: (ids) => {
        const lost = new Set(ids);
        this.fanOut.endAll(leaseLapsed(), (s) => lost.has(s.lease.id));
        leaseOptions.onLost?.(ids);
      },
    });
    this.meter = new StreamMeter((calls) => admitUnits(sql, calls), this.budgets, this.fanOut);
    this.source = new StreamSource(sql, (rows) => this.dispatch(rows), options);
    const streams = () => (this.source.started ? this.fanOut.streams() : []);
    this.checks = new KeyChecks(streams, (s, refusal) => this.fanOut.end(s, refusal));
  }

  get open(): number {
    return this.fanOut.size;
  }

  /**
   * Takes one of the key's `limit` stream slots, counted across every process sharing the database; null when the key
   * already has `limit` open. The lease goes to `body`, or back with `release` if the stream does not open.
   */
  reserve(caller: Caller, limit: number, requestId: string): Promise<StreamLease | null> {
    return this.leases.acquire(caller, limit, requestId);
  }

  release(lease: StreamLease): Promise<void> {
    return this.leases.release(lease);
  }

  /** The opening call's decision seeds its account's budget when none is known. */
  seedBudget(caller: Caller, quotaUsed: number, now: Date): void {
    this.budgets.seed(caller, quotaUsed, now);
  }

  /** The stream's body (its slot already reserved): replays stored events after `after`, then follows live ones. */
  body(o: OpenOptions): ReadableStream<Uint8Array> {
    const s: Subscriber = {
      id: this.nextId++,
      env: o.caller.env,
      caller: o.caller,
      lease: o.lease,
      requestId: o.requestId,
      filter: streamFilter(o.caller.env, o.query),
      after: { row: 0, index: -1 },
      catchingUp: [],
      controller: null,
      closed: false,
      recheck: o.recheck,
      allowed: o.allowed,
      delivered: 0,
    };
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.fanOut.add(s, controller);
          this.source.start();
          this.checks.start();
          void this.attach(s, o.after);
        },
        cancel: () => this.fanOut.drop(s),
      },
      // The response writer reads a chunk only when the socket has drained: what waits here is what the client has not read.
      new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
    );
  }

  /** Positions a new subscriber: live from now, or replaying the stored rows after its Last-Event-ID first. */
  private async attach(s: Subscriber, from: StreamPosition | null): Promise<void> {
    try {
      const newest = await this.source.position(s.env);
      if (from === null) s.after = { row: newest, index: Number.MAX_SAFE_INTEGER };
      else {
        s.after = from;
        await this.deliver([[s, await this.source.replay(s.env, from, newest)]]);
      }
      const queued = s.catchingUp ?? [];
      s.catchingUp = null;
      if (queued.length && !s.closed) await this.deliver([[s, queued]]);
    } catch (err) {
      log.error("stream attach failed", { request_id: s.requestId, ...errorFields(err) });
      this.fanOut.end(s, storeDown());
    }
  }

  /** A round's new rows: to each open stream its environment's, or to its queue while it catches up. */
  private async dispatch(rows: StoredRow[]): Promise<void> {
    const oldest = new Date(rows[0].created_at).getTime();
    const byEnv = { test: rows.filter((r) => r.env === "test"), live: rows.filter((r) => r.env === "live") };
    const work: [Subscriber, StoredRow[]][] = [];
    for (const s of this.fanOut.streams()) {
      if (s.closed) continue;
      const mine = byEnv[s.env];
      if (!mine.length) continue;
      if (s.catchingUp) s.catchingUp.push(...mine);
      else work.push([s, mine]);
    }
    if (!work.length) return;
    await this.deliver(work);
    metrics.streams.lag((Date.now() - oldest) / 1000);
  }

  /**
   * Derives each subscriber's events after its position and sends them, each stream's events of the round metered as
   * one call: while the account's budget covers them they are sent at once and metered in the background; otherwise
   * they are metered first and only the admitted ones sent. Streams sent the same sequence of events share one buffer.
   */
  private async deliver(work: [Subscriber, StoredRow[]][]): Promise<void> {
    const derived = new Derivations();
    const joined: Joined = new Map();
    const first: Batch<Subscriber>[] = [];
    const now = new Date();
    const windows: RoundWindows = new Map();
    for (const [s, rows] of work) {
      // The frames after the stream's position: all of them but when resuming (or catching up) inside the rows.
      const all = derived.run(s.filter, rows);
      let k = 0;
      while (k < all.length && !isAfter(s.after, all[k].row, all[k].index)) k++;
      const mine = k === 0 ? all : all.slice(k);
      const covered = this.budgets.take(s.caller, mine.length, now, windows);
      if (covered > 0) {
        const frames = covered === mine.length ? mine : mine.slice(0, covered);
        this.fanOut.send(s, frames, joined);
        this.meter.sent({ s, frames });
      }
      if (covered < mine.length) first.push({ s, frames: mine.slice(covered) });
      else {
        // Rows that yielded nothing for this stream are behind it too.
        const last = rows[rows.length - 1];
        if (last && last.id > s.after.row) s.after = { row: last.id, index: Number.MAX_SAFE_INTEGER };
      }
    }
    this.meter.flush();
    await this.meter.first(first, joined);
  }

  /** Ends every stream (the process is shutting down), frees their leases in one statement and stops the loops. */
  close(): Promise<void> {
    const freed = this.leases.close();
    this.fanOut.close(restarting());
    this.source.close();
    this.checks.stop();
    return freed;
  }
}
