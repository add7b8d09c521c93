/**
 * The live stream's fan-out, one per process (docs/api-contract.md "Live stream"): a loop reads the stored events newer
 * than the last it saw (one query for every stream together, at once when the producer's NOTIFY says rows were stored,
 * and every 100 ms in any case), derives and encodes each event once per round for every stream with the same filters,
 * and writes each stream its round's events as one chunk, shared by every stream sent the same sequence. Events are
 * metered in aggregate, after they are written: one admit_units call per stream per round for its n events (migration
 * 0021). A stream whose client leaves more than STREAM_MAX_UNREAD_BYTES unread ends with
 * `slow_consumer`. Each second it also re-checks every stream's key (through the pipeline's key cache, which refreshes
 * within 5 s) and ends a stream whose key or plan no longer allows it with a final `error` event.
 */
import type postgres from "postgres";
import { DISCLAIMER } from "../contract/disclaimer";
import {
  STREAM_HEARTBEAT_MS,
  STREAM_MAX_UNREAD_BYTES,
  STREAM_RETENTION_HOURS,
  type StreamEvent,
  type StreamQuery,
} from "../contract/stream";
import type { FlowEvent } from "../analytics/flow";
import { errorFields, log } from "../log";
import { quotaWindow, type Window } from "../limits/windows";
import {
  addSubscription,
  detectEvents,
  emptySubscriptions,
  type Subscriptions,
  type SymbolState,
} from "../engine/market-events";
import { STREAM_EVENTS_CHANNEL } from "../engine/stream-events";
import { admitUnits, type UnitsCall, type UnitsOutcome } from "./admit-units";
import type { Caller } from "./credentials";
import { errorBody } from "./envelope";
import { ApiError } from "./errors";
import { type LeaseOptions, type StreamLease, StreamLeases } from "./stream-leases";
import { planName } from "../shared/plan-name";
import { metrics } from "../metrics/registry";
import type { StreamPosition } from "./stream-position";

export const STREAM_ENDPOINT_ID = "GET /api/v1/stream";
/**
 * New rows are looked for when the producer notifies and 10 times a second besides (one indexed query for every stream
 * together: rows stored without a notification, or while the listening connection is down); keys re-checked each second.
 */
const POLL_MS = 100;
const RECHECK_MS = 1000;
const ROWS_PER_POLL = 5000;
/** After a failed LISTEN, the next attempt (the hub polls meanwhile). */
const LISTEN_RETRY_MS = 30_000;
/** Streams metered per round trip (each stream's events of a round are one call of that many units). */
const CALLS_PER_BATCH = 1000;

interface Row {
  id: number;
  env: "test" | "live";
  kind: string;
  symbol: string;
  payload: unknown;
  created_at: Date;
}

/** What re-checking a stream's key answers: the caller as its key now stands, or why the stream must end. */
export type Recheck = () => Caller | ApiError | Promise<Caller | ApiError>;

export interface OpenOptions {
  caller: Caller;
  /** The stream's slot among its key's (taken with `reserve`, freed when the stream ends). */
  lease: StreamLease;
  query: StreamQuery;
  requestId: string;
  after: StreamPosition | null;
  recheck: Recheck;
  /** The route's own plan rule, applied again on every re-check. */
  allowed: (caller: Caller) => ApiError | null;
}

interface Subscriber {
  id: number;
  env: "test" | "live";
  caller: Caller;
  lease: StreamLease;
  requestId: string;
  events: Set<string>;
  symbols: Set<string> | null;
  query: StreamQuery;
  subs: Subscriptions;
  /** Streams of every symbol: the thresholds per symbol seen so far. */
  subsBySymbol: Map<string, Subscriptions>;
  minPremium: number;
  /** Rows at or before this id were sent (or skipped); rows after it are this stream's to send. */
  after: StreamPosition;
  catchingUp: Row[] | null;
  controller: ReadableStreamDefaultController<Uint8Array> | null;
  closed: boolean;
  recheck: Recheck;
  allowed: (caller: Caller) => ApiError | null;
  delivered: number;
  /** profileOf(query). */
  profile: string;
  /** filterOf(env, query): streams with the same one are sent the same events of the same rows. */
  filter: string;
}

const STORE_DOWN = () =>
  new ApiError("data_source_unavailable", "The service's store is unreachable; reconnect shortly.");
const encoder = new TextEncoder();
const HEARTBEAT = encoder.encode(": heartbeat\n\n");
const sse = (e: StreamEvent) => encoder.encode(`id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);

function subscriptionsOf(q: StreamQuery, symbols: string[]): Subscriptions {
  const subs = emptySubscriptions();
  addSubscription(subs, q.events, symbols, {
    ivRankAbove: q.iv_rank_above,
    ivRankBelow: q.iv_rank_below,
    ivChangeAbove: q.iv_change_above,
  });
  return subs;
}

/** An encoded event: its SSE bytes are built once per round and shared by every stream it goes to. */
interface Frame {
  /** Per round: names the frame in a stream's sequence (streams with the same sequence share one buffer). */
  serial: number;
  id: string;
  row: number;
  index: number;
  bytes: Uint8Array;
}

/** The thresholds and events a stream detects market events with: streams with the same profile derive the same events. */
const profileOf = (q: StreamQuery) =>
  `${[...q.events].sort().join(",")}|${q.iv_rank_above ?? ""}|${q.iv_rank_below ?? ""}|${q.iv_change_above ?? ""}`;

/** Everything Derivations.for reads of a stream: streams with the same filter derive the same events from a row. */
const filterOf = (env: "test" | "live", q: StreamQuery) =>
  `${env}|${profileOf(q)}|${q.symbols ? [...new Set(q.symbols)].sort().join(",") : "*"}|${q.min_premium ?? 0}`;

/** One round's derivations: each (environment, row, profile) is derived and encoded once, whatever the streams. */
class Derivations {
  /** Flow rows: one event each, the same for every stream of the row's environment that takes it. */
  private readonly flows = new Map<Row, Frame[]>();
  /** State rows: the events by threshold profile. */
  private readonly states = new Map<Row, Map<string, Frame[]>>();
  private readonly subs = new Map<string, Subscriptions>();
  /** Per list of rows, the events by stream filter. */
  private readonly runs = new Map<Row[], Map<string, Frame[]>>();
  private serial = 0;

  /**
   * The events a list of rows yields for a subscriber, derived once for every stream with the same filter: the same
   * array (so its joined bytes are built once too). Frames are in (row, index) order.
   */
  run(s: Subscriber, rows: Row[]): Frame[] {
    let byFilter = this.runs.get(rows);
    if (!byFilter) this.runs.set(rows, (byFilter = new Map()));
    let frames = byFilter.get(s.filter);
    if (!frames) {
      frames = [];
      for (const r of rows) for (const f of this.for(s, r)) frames.push(f);
      byFilter.set(s.filter, frames);
    }
    return frames;
  }

  /** The events one stored row yields for one subscriber, in a fixed order (so an index names the same event again). */
  for(s: Subscriber, row: Row): Frame[] {
    if (s.symbols && !s.symbols.has(row.symbol)) return [];
    if (row.kind !== "state") {
      if (!s.events.has(row.kind) || (row.payload as FlowEvent).premium < s.minPremium) return [];
      let f = this.flows.get(row);
      if (!f) {
        const flow = row.payload as FlowEvent;
        f = [
          this.frame(row, 0, {
            type: row.kind as StreamEvent["type"],
            symbol: row.symbol,
            data: { ...flow, ...base(row.env) },
          }),
        ];
        this.flows.set(row, f);
      }
      return f;
    }
    let byProfile = this.states.get(row);
    if (!byProfile) this.states.set(row, (byProfile = new Map()));
    let f = byProfile.get(s.profile);
    if (!f) {
      const { prev, cur } = row.payload as { prev: SymbolState; cur: SymbolState };
      const subsKey = `${s.profile}|${row.symbol}`;
      let subs = this.subs.get(subsKey);
      if (!subs) this.subs.set(subsKey, (subs = subscriptionsOf(s.query, [row.symbol])));
      f = detectEvents({ [row.symbol]: prev }, { [row.symbol]: cur }, subs).map((d, i) =>
        this.frame(row, i, { type: d.type, symbol: d.symbol, data: { ...d.data, ...base(row.env) } }),
      );
      byProfile.set(s.profile, f);
    }
    return f;
  }

  private frame(row: Row, index: number, e: Pick<StreamEvent, "type" | "symbol" | "data">): Frame {
    const id = `${row.id}.${index}`;
    const event: StreamEvent = {
      id,
      type: e.type,
      symbol: e.symbol,
      timestamp: new Date(row.created_at).toISOString(),
      data: e.data,
    };
    return { serial: this.serial++, id, row: row.id, index, bytes: sse(event) };
  }
}

const base = (env: "test" | "live") => ({
  environment: env,
  isMockData: env === "test",
  dataLabel: env === "test" ? "demo" : "live",
  disclaimer: DISCLAIMER,
});

/** One round's joined bytes, by frame array (streams handed the same array) and by the frames' serials. */
type Joined = Map<Frame[] | string, Uint8Array>;

/** A stream's frames of one round, waiting to be metered (sent already, or to be sent once admitted). */
interface Batch {
  s: Subscriber;
  frames: Frame[];
}

interface Budget {
  windowStart: number;
  left: number;
  unmetered: number;
}

const budgetKey = (s: Subscriber) => `${s.caller.accountId}|${s.env}`;

const after = (p: StreamPosition, row: number, index: number) => row > p.row || (row === p.row && index > p.index);

export class StreamHub {
  private readonly subscribers = new Map<number, Subscriber>();
  /** The key's open streams across every process (stream_leases, migration 0022). */
  readonly leases: StreamLeases;
  private cursor: Record<"test" | "live", number> | null = null;
  private ready: Promise<void> | null = null;
  private poller: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private ticking = false;
  /** A notification came during a round: another round follows it at once. */
  private again = false;
  /** The producer's notifications: the pool listened on (`sql.options`, renewed with the pool) and how to stop. */
  private listenedOn: unknown = null;
  private listener: { unlisten(): Promise<void> } | null = null;
  private listenRetryAt = 0;
  private rechecker: NodeJS.Timeout | null = null;
  private rechecking = false;
  /** Per account and key environment (the quota's scope): units known to be left in the current window. */
  private readonly budgets = new Map<string, Budget>();
  /** Events sent on a known budget, waiting to be metered. */
  private meterQueue: Batch[] = [];
  private metering = false;
  private meteringDone: Promise<void> = Promise.resolve();
  private nextId = 1;
  /** Counters for tests and the bench. */
  readonly stats = { polls: 0, batches: 0, delivered: 0 };

  constructor(
    private readonly sql: postgres.Sql,
    leaseOptions: LeaseOptions = {},
  ) {
    this.leases = new StreamLeases(sql, {
      ...leaseOptions,
      onLost: (ids) => {
        const lost = new Set(ids);
        const lapsed = new ApiError(
          "data_source_unavailable",
          "This stream's slot lapsed (the server could not renew it in time); reconnect with Last-Event-ID.",
        );
        for (const s of [...this.subscribers.values()]) if (lost.has(s.lease.id)) this.end(s, lapsed);
        leaseOptions.onLost?.(ids);
      },
    });
  }

  get open(): number {
    return this.subscribers.size;
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

  /** The stream's body (its slot already reserved): replays stored events after `after`, then follows live ones. */
  body(o: OpenOptions): ReadableStream<Uint8Array> {
    const id = this.nextId++;
    const q = o.query;
    const symbols = q.symbols ?? null;
    const s: Subscriber = {
      id,
      env: o.caller.env,
      caller: o.caller,
      lease: o.lease,
      requestId: o.requestId,
      events: new Set(q.events),
      symbols: symbols ? new Set(symbols) : null,
      query: q,
      subs: subscriptionsOf(q, symbols ?? []),
      subsBySymbol: new Map(),
      minPremium: q.min_premium ?? 0,
      after: { row: 0, index: -1 },
      catchingUp: [],
      controller: null,
      closed: false,
      recheck: o.recheck,
      allowed: o.allowed,
      delivered: 0,
      profile: profileOf(q),
      filter: filterOf(o.caller.env, q),
    };
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          s.controller = controller;
          controller.enqueue(encoder.encode(": stream open\n\n"));
          this.subscribers.set(id, s);
          metrics.streams.opened();
          this.start();
          void this.attach(s, o.after);
        },
        cancel: () => this.drop(s),
      },
      // The response writer reads a chunk only when the socket has drained: what waits here is what the client has not read.
      new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
    );
  }

  /** Positions a new subscriber: live from now, or replaying the stored rows after its Last-Event-ID first. */
  private async attach(s: Subscriber, from: StreamPosition | null): Promise<void> {
    try {
      await this.ready;
      const cursor = (this.cursor as Record<"test" | "live", number>)[s.env];
      if (from === null) {
        s.after = { row: cursor, index: Number.MAX_SAFE_INTEGER };
      } else {
        s.after = from;
        const since = new Date(Date.now() - STREAM_RETENTION_HOURS * 3_600_000).toISOString();
        const rows = await this.sql<Row[]>`
          select id::float8 as id, env, kind, symbol, payload, created_at from stream_events
          where env = ${s.env} and id >= ${from.row} and id <= ${cursor} and created_at >= ${since}::timestamptz
          order by id`;
        for (const r of rows) r.id = Number(r.id);
        await this.deliver([[s, rows]]);
      }
      const queued = s.catchingUp ?? [];
      s.catchingUp = null;
      if (queued.length && !s.closed) await this.deliver([[s, queued]]);
    } catch (err) {
      log.error("stream attach failed", { request_id: s.requestId, ...errorFields(err) });
      this.end(s, STORE_DOWN());
    }
  }

  private start(): void {
    if (this.ready) return;
    this.ready = this.sql<{ env: "test" | "live"; id: number }[]>`
      select env, coalesce(max(id), 0)::float8 as id from stream_events group by env`.then((rows) => {
      const c = { test: 0, live: 0 };
      for (const r of rows) c[r.env] = Number(r.id);
      this.cursor = c;
    });
    this.ready.catch((err) => {
      log.error("stream hub start failed", errorFields(err));
      this.ready = null;
    });
    this.poller = setInterval(() => void this.tick(), POLL_MS);
    this.poller.unref();
    void this.listen();
    // Key re-checks run on their own timer, so that a slow one never holds back delivery.
    this.rechecker = setInterval(() => {
      void this.listen(); // again on a renewed pool (the old one's listening connection ended with it)
      if (this.rechecking || !this.cursor) return;
      this.rechecking = true;
      this.recheckAll()
        .catch((err) => log.error("stream re-check failed", errorFields(err)))
        .finally(() => {
          this.rechecking = false;
        });
    }, RECHECK_MS);
    this.rechecker.unref();
    this.heartbeat = setInterval(() => {
      for (const s of this.subscribers.values()) this.write(s, HEARTBEAT);
    }, STREAM_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /**
   * Listens for the producer's notifications on the pool's current connection to PostgreSQL (once per pool): each one
   * starts a round at once instead of at the next poll. Without it (refused, or the connection lost) the hub still
   * polls every POLL_MS.
   */
  private async listen(): Promise<void> {
    const pool = this.sql.options;
    if (this.listenedOn === pool || !this.poller || Date.now() < this.listenRetryAt) return;
    this.listenedOn = pool;
    try {
      const listener = await this.sql.listen(STREAM_EVENTS_CHANNEL, () => this.wake());
      if (this.listenedOn === pool && this.poller) this.listener = listener;
      else await listener.unlisten(); // closed or renewed meanwhile
    } catch (err) {
      if (this.listenedOn === pool) this.listenedOn = null;
      this.listenRetryAt = Date.now() + LISTEN_RETRY_MS;
      log.warn("stream hub cannot listen for new events; polling only", errorFields(err));
    }
  }

  /** Rows were stored: a round now (or right after the one running). */
  private wake(): void {
    if (this.ticking) this.again = true;
    else void this.tick();
  }

  /** One round: read the new rows, dispatch them. Skipped while the previous one runs. */
  private async tick(): Promise<void> {
    if (this.ticking || !this.cursor) return;
    this.ticking = true;
    try {
      await this.poll();
    } catch (err) {
      log.error("stream poll failed", errorFields(err));
    } finally {
      this.ticking = false;
    }
    if (this.again) {
      this.again = false;
      void this.tick();
    }
  }

  /** Re-checks each stream's key and plan; a stream that is no longer allowed ends with an error event. */
  private async recheckAll(): Promise<void> {
    await Promise.all(
      [...this.subscribers.values()].map(async (s) => {
        let judged: Caller | ApiError;
        try {
          judged = await s.recheck();
        } catch {
          return; // the store is briefly unreachable: the stream goes on, the next second re-checks
        }
        const refusal = judged instanceof ApiError ? judged : s.allowed(judged);
        if (refusal) this.end(s, refusal);
        else if (!(judged instanceof ApiError)) s.caller = judged;
      }),
    );
  }

  /** Reads the rows newer than the cursor (one query for every stream) and dispatches them by filter. */
  async poll(): Promise<void> {
    if (!this.cursor) return;
    const c = this.cursor;
    const rows = await this.sql<Row[]>`
      select id::float8 as id, env, kind, symbol, payload, created_at from stream_events
      where (env = 'test' and id > ${c.test}) or (env = 'live' and id > ${c.live})
      order by id limit ${ROWS_PER_POLL}`;
    this.stats.polls++;
    if (!rows.length) return;
    const oldest = new Date(rows[0].created_at).getTime();
    for (const r of rows) {
      r.id = Number(r.id);
      if (r.id > c[r.env]) c[r.env] = r.id;
    }
    const byEnv = { test: rows.filter((r) => r.env === "test"), live: rows.filter((r) => r.env === "live") };
    const work: [Subscriber, Row[]][] = [];
    for (const s of this.subscribers.values()) {
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
   * Derives each subscriber's events from its rows and sends them, each metered as one call: while the account's quota
   * is known to cover them (its budget: the limit less the use at the last decision and the events sent since) they are
   * sent at once and metered in the background; otherwise they are metered first (admit_batch, CALLS_PER_BATCH calls a
   * round trip) and only the admitted ones sent. A stream whose quota is spent gets the error event and ends.
   * Each event is derived and encoded once per round, and streams sent the same sequence of events share one buffer.
   */
  private async deliver(work: [Subscriber, Row[]][]): Promise<void> {
    const derived = new Derivations();
    const joined: Joined = new Map();
    const first: Batch[] = [];
    const now = new Date();
    const windows = new Map<Caller["plan"], number>();
    for (const [s, rows] of work) {
      // The frames after the stream's position: all of them but when resuming (or catching up) inside the rows.
      const all = derived.run(s, rows);
      let k = 0;
      while (k < all.length && !after(s.after, all[k].row, all[k].index)) k++;
      const mine = k === 0 ? all : all.slice(k);
      const budget = this.budgetOf(s, now, windows);
      const covered = budget ? Math.min(Math.max(budget.left, 0), mine.length) : 0;
      if (budget && covered > 0) {
        budget.left -= covered;
        budget.unmetered += covered;
        const frames = covered === mine.length ? mine : mine.slice(0, covered);
        this.sendFrames(s, frames, joined);
        this.meterQueue.push({ s, frames });
      }
      if (covered < mine.length) first.push({ s, frames: mine.slice(covered) });
      else {
        // Rows that yielded nothing for this stream are behind it too.
        const last = rows[rows.length - 1];
        if (last && last.id > s.after.row) s.after = { row: last.id, index: Number.MAX_SAFE_INTEGER };
      }
    }
    // Metered once this round's writes are on their way (the writes run in the microtasks this loop queued).
    if (this.meterQueue.length) void this.meterInBackground();
    // Events sent earlier on a budget are decided first: otherwise one waiting here could take the quota they used.
    if (first.length && this.metering) await this.meteringDone;
    while (first.length) {
      const chunk = first.splice(0, CALLS_PER_BATCH).filter((b) => !b.s.closed);
      if (!chunk.length) continue;
      let granted: number[];
      try {
        granted = await this.meter(chunk, false);
      } catch {
        // Nothing unmetered is sent; the client resumes with Last-Event-ID.
        for (const b of [...chunk, ...first]) this.end(b.s, STORE_DOWN());
        return;
      }
      chunk.forEach((b, j) => {
        if (granted[j] === b.frames.length) this.sendFrames(b.s, b.frames, joined); // fewer: sent by meter, then ended
      });
    }
  }

  /** Meters the events already sent, in the order sent, one batch at a time; resolves when the queue is empty. */
  private meterInBackground(): Promise<void> {
    if (this.metering) return this.meteringDone;
    this.metering = true;
    this.meteringDone = (async () => {
      try {
        await new Promise((resolve) => setImmediate(resolve));
        while (this.meterQueue.length) {
          const chunk = this.meterQueue.splice(0, CALLS_PER_BATCH);
          try {
            await this.meter(chunk, true);
          } catch {
            for (const b of chunk) this.end(b.s, STORE_DOWN());
          }
        }
      } finally {
        this.metering = false;
      }
    })();
    return this.meteringDone;
  }

  /**
   * One admit_units for a chunk of batches: each stream's events of a round are one call of `units` events, each event
   * one unit of the day's quota, recorded as one usage row with its count. Refreshes the accounts' budgets from the
   * decisions and ends the streams the quota refused. `sent`: the events were sent already (they leave the budgets'
   * unmetered count). Answers how many of each batch's events were granted.
   */
  private async meter(chunk: Batch[], sent: boolean): Promise<number[]> {
    const now = new Date();
    const quotas = new Map<string, Window>();
    const quotaOf = (c: Caller) => {
      let q = quotas.get(c.keyId);
      if (!q) quotas.set(c.keyId, (q = quotaWindow("B", c.plan, now)));
      return q;
    };
    const calls: UnitsCall[] = chunk.map(({ s, frames }) => ({
      requestId: `${s.requestId}:${frames[0].id}+${frames.length}`,
      keyId: s.caller.keyId,
      accountId: s.caller.accountId,
      endpointId: STREAM_ENDPOINT_ID,
      now,
      units: frames.length,
      quota: quotaOf(s.caller),
    }));
    let outcomes: UnitsOutcome[];
    try {
      outcomes = await admitUnits(this.sql, calls);
    } catch (err) {
      log.error("stream metering failed", errorFields(err));
      throw err;
    }
    this.stats.batches++;
    const used = new Map<string, { quota: Window; used: number }>();
    chunk.forEach(({ s, frames }, j) => {
      const quota = calls[j].quota;
      const key = budgetKey(s);
      if (sent) {
        const b = this.budgets.get(key);
        if (b) b.unmetered -= frames.length;
      }
      const o = outcomes[j];
      const seen = used.get(key);
      if (!seen || o.quotaUsed > seen.used) used.set(key, { quota, used: o.quotaUsed });
      if (o.granted < frames.length && !s.closed) {
        // Admitted events are sent before the stream ends.
        if (!sent) this.sendFrames(s, frames.slice(0, o.granted), new Map());
        this.end(
          s,
          new ApiError(
            "plan_limit_exceeded",
            `The ${planName(s.caller.plan)} plan's daily quota of ${quota.limit} calls is spent.`,
          ),
        );
      }
    });
    for (const [key, { quota, used: n }] of used) this.setBudget(key, quota, n);
    return outcomes.map((o) => o.granted);
  }

  /** The account's budget in its current quota window, or null when not known yet (or the window turned). */
  private budgetOf(s: Subscriber, now: Date, windows: Map<Caller["plan"], number>): Budget | null {
    const b = this.budgets.get(budgetKey(s));
    if (!b) return null;
    let start = windows.get(s.caller.plan);
    if (start === undefined) windows.set(s.caller.plan, (start = quotaWindow("B", s.caller.plan, now).start.getTime()));
    return start === b.windowStart ? b : null;
  }

  /** What a decision says is left: the quota less its use then, less the events sent and not yet metered. */
  private setBudget(key: string, quota: Window, used: number): void {
    const b = this.budgets.get(key);
    const unmetered = b && b.windowStart === quota.start.getTime() ? b.unmetered : 0;
    this.budgets.set(key, {
      windowStart: quota.start.getTime(),
      left: Math.max(0, quota.limit - used - unmetered),
      unmetered,
    });
  }

  /** The opening call's decision seeds its account's budget when none is known. */
  seedBudget(caller: Caller, quotaUsed: number, now: Date): void {
    const key = `${caller.accountId}|${caller.env}`;
    if (!this.budgets.has(key)) this.setBudget(key, quotaWindow("B", caller.plan, now), quotaUsed);
  }

  /** Writes a stream's frames of a round as one chunk, shared with every stream sent the same sequence. */
  private sendFrames(s: Subscriber, frames: Frame[], joined: Joined): void {
    if (s.closed || !frames.length) return;
    let bytes = frames[0].bytes;
    if (frames.length > 1) {
      // Streams with the same filter are handed the same array: found by identity, without building a key.
      let known = joined.get(frames);
      if (!known) {
        // A stream's frames need not be in serial order (a row's frame may have been made for another filter first):
        // the short key names only a run of consecutive serials.
        const first = frames[0].serial;
        const consecutive = frames.every((f, i) => f.serial === first + i);
        const key = consecutive ? `${first}-${frames.length}` : frames.map((f) => f.serial).join(",");
        known = joined.get(key);
        if (!known) {
          known = new Uint8Array(frames.reduce((n, f) => n + f.bytes.length, 0));
          let at = 0;
          for (const f of frames) {
            known.set(f.bytes, at);
            at += f.bytes.length;
          }
          joined.set(key, known);
        }
        joined.set(frames, known);
      }
      bytes = known;
    }
    const last = frames[frames.length - 1];
    s.after = { row: last.row, index: last.index };
    s.delivered += frames.length;
    this.stats.delivered += frames.length;
    metrics.streams.sent(frames.length);
    this.write(s, bytes);
  }

  private write(s: Subscriber, chunk: Uint8Array, final = false): void {
    if (s.closed || !s.controller) return;
    try {
      s.controller.enqueue(chunk);
    } catch {
      this.drop(s);
      return;
    }
    // Backpressure: a reader this far behind is ended (its last event says so) rather than buffered without bound. The
    // buffers are shared between streams, so memory stays bounded by the distinct bytes of the rounds still unread.
    if (!final && -(s.controller.desiredSize ?? 0) > STREAM_MAX_UNREAD_BYTES)
      this.end(
        s,
        new ApiError("slow_consumer", "The stream was read too slowly and fell behind; reconnect with Last-Event-ID."),
      );
  }

  /** Ends a stream with a final `error` event carrying the family B error body. */
  end(s: Subscriber, error: ApiError): void {
    if (s.closed) return;
    const body = errorBody("B", error, { env: s.env, label: s.env === "test" ? "demo" : "none", now: new Date() });
    this.write(s, encoder.encode(`event: error\ndata: ${JSON.stringify(body)}\n\n`), true);
    log.info("stream ended", { request_id: s.requestId, code: error.code, delivered: s.delivered });
    try {
      s.controller?.close();
    } catch {
      // already closed by the client
    }
    this.drop(s);
  }

  private drop(s: Subscriber): void {
    if (s.closed) return;
    s.closed = true;
    this.subscribers.delete(s.id);
    metrics.streams.closed();
    void this.release(s.lease);
  }

  /** Ends every stream (the process is shutting down), frees their leases in one statement and stops the loops. */
  close(): Promise<void> {
    const down = new ApiError("data_source_unavailable", "The service is restarting; reconnect with Last-Event-ID.");
    const freed = this.leases.close();
    for (const s of [...this.subscribers.values()]) this.end(s, down);
    if (this.poller) clearInterval(this.poller);
    this.listener?.unlisten().catch(() => {});
    this.listener = this.listenedOn = null;
    if (this.rechecker) clearInterval(this.rechecker);
    this.rechecker = null;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.poller = this.heartbeat = null;
    this.ready = null;
    this.cursor = null;
    return freed;
  }
}

/** One hub per pool (per process in practice), created on the first stream. */
const hubs = new WeakMap<object, StreamHub>();
export function streamHub(sql: postgres.Sql): StreamHub {
  let hub = hubs.get(sql);
  if (!hub) hubs.set(sql, (hub = new StreamHub(sql)));
  return hub;
}

/** Ends the pool's streams; resolves once their leases are deleted (or the delete failed: they expire). */
export function closeStreamHub(sql: postgres.Sql): Promise<void> {
  return hubs.get(sql)?.close() ?? Promise.resolve();
}
