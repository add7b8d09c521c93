/**
 * Fixed-window counters for the portal's own limits (failed sign-ins, mails sent) on the API's usage_counters table,
 * under bucket names of their own. A slot is taken with the same atomic `insert … on conflict do update … where
 * count < limit` as the API's limits, so concurrent callers on any number of processes never exceed the limit.
 */
import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";

export interface Counter {
  key: string;
  bucket: string;
  limit: number;
  windowSeconds: number;
}

export function windowOf(counter: Counter, now: Date): { start: string; retryAfterSeconds: number } {
  const ms = counter.windowSeconds * 1000;
  const start = Math.floor(now.getTime() / ms) * ms;
  return {
    start: new Date(start).toISOString(),
    retryAfterSeconds: Math.max(1, Math.ceil((start + ms - now.getTime()) / 1000)),
  };
}

/** Takes one slot in the counter's current window; false when the window is full. */
export async function takeSlot(db: Db, counter: Counter, now: Date): Promise<boolean> {
  const rows = await db.execute(sql`
    insert into usage_counters as c (key_id, bucket, window_start, count)
    values (${counter.key}, ${counter.bucket}, ${windowOf(counter, now).start}::timestamptz, 1)
    on conflict (key_id, bucket, window_start) do update set count = c.count + 1 where c.count < ${counter.limit}::int
    returning c.count`);
  return rows.length > 0;
}

/** Gives a slot back (an attempt that turned out not to count). */
export async function giveSlot(db: Db, counter: Counter, now: Date): Promise<void> {
  await db.execute(sql`
    update usage_counters set count = count - 1
    where key_id = ${counter.key} and bucket = ${counter.bucket} and window_start = ${windowOf(counter, now).start}::timestamptz and count > 0`);
}
