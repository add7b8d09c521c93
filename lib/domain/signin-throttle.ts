/**
 * Failed sign-ins throttled per e-mail and per client address on the API's usage_counters table (buckets
 * `signin:email` and `signin:ip`, 15-minute fixed windows). Each attempt takes a slot with the same atomic
 * `insert … on conflict do update … where count < limit` as the API's limits; a correct password gives it back,
 * so only failures count and concurrent guesses never get more than the limit.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { waitMessage } from "../auth/wait-message";
import { DomainError } from "./errors";

export const SIGNIN_WINDOW_SECONDS = 15 * 60;
export const SIGNIN_LIMITS = { email: 5, ip: 30 } as const;

interface Slot {
  key: string;
  bucket: string;
  limit: number;
}

export interface SigninAttempt {
  /** The password was right: the attempt does not count as a failure. */
  release(): Promise<void>;
}

function windowStart(now: Date): Date {
  const ms = SIGNIN_WINDOW_SECONDS * 1000;
  return new Date(Math.floor(now.getTime() / ms) * ms);
}

async function take(db: Db, slot: Slot, start: string): Promise<boolean> {
  const rows = await db.execute(sql`
    insert into usage_counters as c (key_id, bucket, window_start, count)
    values (${slot.key}, ${slot.bucket}, ${start}::timestamptz, 1)
    on conflict (key_id, bucket, window_start) do update set count = c.count + 1 where c.count < ${slot.limit}::int
    returning c.count`);
  return rows.length > 0;
}

async function give(db: Db, slot: Slot, start: string): Promise<void> {
  await db.execute(sql`
    update usage_counters set count = count - 1
    where key_id = ${slot.key} and bucket = ${slot.bucket} and window_start = ${start}::timestamptz and count > 0`);
}

/** Takes one attempt for this e-mail and address, or throws rate_limited with the seconds until the window ends. */
export async function takeSigninAttempt(db: Db, who: { email: string; ip?: string }, now = new Date()): Promise<SigninAttempt> {
  const start = windowStart(now);
  const iso = start.toISOString();
  const slots: Slot[] = [{ key: who.email, bucket: "signin:email", limit: SIGNIN_LIMITS.email }];
  if (who.ip) slots.push({ key: who.ip, bucket: "signin:ip", limit: SIGNIN_LIMITS.ip });
  const taken: Slot[] = [];
  for (const slot of slots) {
    if (await take(db, slot, iso)) {
      taken.push(slot);
      continue;
    }
    for (const t of taken) await give(db, t, iso);
    const retryAfterSeconds = Math.max(1, Math.ceil((start.getTime() + SIGNIN_WINDOW_SECONDS * 1000 - now.getTime()) / 1000));
    throw new DomainError("rate_limited", waitMessage(retryAfterSeconds), { retryAfterSeconds });
  }
  return { release: async () => { for (const t of taken) await give(db, t, iso); } };
}
