/**
 * Where the live stream's rows come from: the stream_events rows newer than the last read, one query for every stream
 * together, at once when the producer's NOTIFY says rows were stored (lib/engine/stream-events.ts) and every POLL_MS in
 * any case (rows stored without a notification, or while the listening connection is down). Each round's rows go to
 * `onRows`; a round never overlaps the previous one, and a notification during a round is followed by another.
 */
import type postgres from "postgres";
import { STREAM_RETENTION_HOURS } from "../../contract/stream";
import { STREAM_EVENTS_CHANNEL } from "../../engine/stream-events";
import { errorFields, log } from "../../log";
import type { StreamPosition } from "../stream-position";
import type { KeyEnv, StoredRow } from "./frames";

const POLL_MS = 100;
const ROWS_PER_POLL = 5000;
/** After a failed LISTEN, the next attempt (the source polls meanwhile). */
const LISTEN_RETRY_MS = 30_000;

export interface SourceOptions {
  pollMs?: number;
  listenRetryMs?: number;
}

export class StreamSource {
  /** Per key environment, the newest row read: null until the start-up read answers. */
  private cursor: Record<KeyEnv, number> | null = null;
  private ready: Promise<void> | null = null;
  private poller: NodeJS.Timeout | null = null;
  private ticking = false;
  /** A notification came during a round: another round follows it at once. */
  private again = false;
  /** The producer's notifications: the pool listened on (`sql.options`, renewed with the pool) and how to stop. */
  private listenedOn: unknown = null;
  private listener: { unlisten(): Promise<void> } | null = null;
  private listenRetryAt = 0;

  constructor(
    private readonly sql: postgres.Sql,
    private readonly onRows: (rows: StoredRow[]) => Promise<void>,
    private readonly options: SourceOptions = {},
  ) {}

  /** Whether the start-up read has answered (rounds run only then). */
  get started(): boolean {
    return this.cursor !== null;
  }

  /** Reads where the stored rows end, then runs rounds until `close`; again after a failed start-up read. */
  start(): void {
    if (this.ready) return;
    this.ready = this.sql<{ env: KeyEnv; id: number }[]>`
      select env, coalesce(max(id), 0)::float8 as id from stream_events group by env`.then((rows) => {
      const c = { test: 0, live: 0 };
      for (const r of rows) c[r.env] = Number(r.id);
      this.cursor = c;
    });
    this.ready.catch((err) => {
      log.error("stream hub start failed", errorFields(err));
      this.ready = null;
    });
    if (this.poller) return;
    this.poller = setInterval(() => {
      void this.listen(); // again on a renewed pool (the old one's listening connection ended with it)
      void this.tick();
    }, this.options.pollMs ?? POLL_MS);
    this.poller.unref();
    void this.listen();
  }

  /** The newest row of `env` read so far, once the start-up read has answered; throws if it failed. */
  async position(env: KeyEnv): Promise<number> {
    await this.ready;
    if (!this.cursor) throw new Error("the stream source has not started");
    return this.cursor[env];
  }

  /** The stored rows of `env` from `from`'s row up to `upTo`, within the retention (a resuming stream's replay). */
  async replay(env: KeyEnv, from: StreamPosition, upTo: number): Promise<StoredRow[]> {
    const since = new Date(Date.now() - STREAM_RETENTION_HOURS * 3_600_000).toISOString();
    const rows = await this.sql<StoredRow[]>`
      select id::float8 as id, env, kind, symbol, payload, created_at from stream_events
      where env = ${env} and id >= ${from.row} and id <= ${upTo} and created_at >= ${since}::timestamptz
      order by id`;
    for (const r of rows) r.id = Number(r.id);
    return rows;
  }

  /**
   * Listens for the producer's notifications on the pool's current connection to PostgreSQL (once per pool): each one
   * starts a round at once instead of at the next poll. Without it (refused, or the connection lost) rounds still run
   * every POLL_MS.
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
      this.listenRetryAt = Date.now() + (this.options.listenRetryMs ?? LISTEN_RETRY_MS);
      log.warn("stream hub cannot listen for new events; polling only", errorFields(err));
    }
  }

  /** Rows were stored: a round now (or right after the one running). */
  private wake(): void {
    if (this.ticking) this.again = true;
    else void this.tick();
  }

  /** One round: read the new rows, hand them on. Skipped while the previous one runs. */
  private async tick(): Promise<void> {
    if (this.ticking || !this.cursor) return;
    this.ticking = true;
    try {
      await this.poll(this.cursor);
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

  /** Reads the rows newer than the cursor (one query for every stream), moves the cursor past them, hands them on. */
  private async poll(c: Record<KeyEnv, number>): Promise<void> {
    const rows = await this.sql<StoredRow[]>`
      select id::float8 as id, env, kind, symbol, payload, created_at from stream_events
      where (env = 'test' and id > ${c.test}) or (env = 'live' and id > ${c.live})
      order by id limit ${ROWS_PER_POLL}`;
    if (!rows.length) return;
    for (const r of rows) {
      r.id = Number(r.id);
      if (r.id > c[r.env]) c[r.env] = r.id;
    }
    await this.onRows(rows);
  }

  /** Stops the rounds and the listening; `start` begins again from the newest stored row. */
  close(): void {
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
    this.listener?.unlisten().catch(() => {});
    this.listener = this.listenedOn = null;
    this.ready = null;
    this.cursor = null;
  }
}
