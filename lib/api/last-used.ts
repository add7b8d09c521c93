/**
 * api_keys.last_used_at without a write on the request's round trip: each process remembers when it last recorded a
 * key, queues at most one timestamp per key per minute, and flushes the queue with one batched UPDATE every few seconds.
 */
import type { Database } from "../db/client";
import { errorFields, log } from "../log";

/** A key's last_used_at is written at most this often by one process. */
export const LAST_USED_RESOLUTION_MS = 60_000;
const FLUSH_DELAY_MS = 5_000;

export class LastUsedTracker {
  private readonly queued = new Map<string, number>(); // keyId → when this process last queued it
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly database: Database,
    private readonly flushDelayMs = FLUSH_DELAY_MS,
  ) {}

  touch(keyId: string, at: number): void {
    const last = this.queued.get(keyId);
    if (last !== undefined && at - last < LAST_USED_RESOLUTION_MS) return;
    this.queued.set(keyId, at);
    this.pending.set(keyId, at);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushDelayMs);
      this.timer.unref(); // never keeps a stopping process alive; close() flushes explicitly
    }
  }

  /** Writes everything queued in one statement; a failed write is logged and dropped (it is a convenience column). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = new Map();
    const cutoff = Date.now() - LAST_USED_RESOLUTION_MS;
    for (const [id, at] of this.queued) if (at < cutoff) this.queued.delete(id); // bounded by the keys seen in a minute
    if (batch.size === 0) return this.flushing;
    const ids = [...batch.keys()];
    const times = [...batch.values()].map((at) => new Date(at).toISOString());
    const { sql } = this.database;
    this.flushing = this.flushing.then(() =>
      sql`update api_keys k set last_used_at = v.t
          from unnest(${sql.array(ids)}::text[], ${sql.array(times)}::timestamptz[]) as v(id, t)
          where k.id = v.id and (k.last_used_at is null or k.last_used_at < v.t)`.then(
        () => undefined,
        (err) => log.warn("last_used_at flush failed", { keys: ids.length, ...errorFields(err) }),
      ),
    );
    return this.flushing;
  }
}
