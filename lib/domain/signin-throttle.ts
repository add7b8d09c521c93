/**
 * Failed sign-ins: growing delays per e-mail, a budget per client address. An e-mail gets SIGNIN_LIMITS.email attempts
 * freely; past them each attempt must wait a delay that doubles with every consecutive failure (1 minute, 2, 4 … capped
 * at 15), counted from the last attempt. Nothing is a lock: once the delay has passed, the right password signs in from
 * any address, and a correct password clears the e-mail's record. The per-address budget (SIGNIN_LIMITS.ip failures per
 * 15-minute window) only slows the address that fails. An attempt counts as a failure from the moment it is taken
 * (concurrent guesses cannot overtake the count); `release` gives it back when the password was right.
 */
import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { waitMessage } from "../shared/wait-message";
import { DomainError } from "./errors";
import { giveSlot, takeSlot, windowOf, type Counter } from "./portal-counters";

export const SIGNIN_WINDOW_SECONDS = 15 * 60;
export const SIGNIN_LIMITS = { email: 5, ip: 30 } as const;
/** The delay after SIGNIN_LIMITS.email failures; it doubles per further failure up to SIGNIN_MAX_DELAY_SECONDS. */
export const SIGNIN_FIRST_DELAY_SECONDS = 60;
export const SIGNIN_MAX_DELAY_SECONDS = 15 * 60;
/** A record whose last attempt is older than this starts again from zero. */
const FORGET_AFTER_SECONDS = 24 * 3600;

/** Seconds an attempt must wait after the last one, given the consecutive failures before it. */
export function signinDelaySeconds(failures: number): number {
  if (failures < SIGNIN_LIMITS.email) return 0;
  return Math.min(SIGNIN_MAX_DELAY_SECONDS, SIGNIN_FIRST_DELAY_SECONDS * 2 ** (failures - SIGNIN_LIMITS.email));
}

export interface SigninAttempt {
  /** The password was right: the attempt does not count, and the e-mail's record is cleared. */
  release(): Promise<void>;
}

const refused = (retryAfterSeconds: number) =>
  new DomainError("rate_limited", waitMessage(retryAfterSeconds), { retryAfterSeconds });

/** Takes one attempt for this e-mail and address, or throws rate_limited with the seconds left to wait. */
export async function takeSigninAttempt(
  db: Db,
  who: { email: string; ip?: string },
  now = new Date(),
): Promise<SigninAttempt> {
  const ipCounter: Counter | null = who.ip
    ? { key: who.ip, bucket: "signin:ip", limit: SIGNIN_LIMITS.ip, windowSeconds: SIGNIN_WINDOW_SECONDS }
    : null;
  // The failures of the current window per e-mail, kept for operators alongside the delay record.
  const emailCounter: Counter = {
    key: who.email,
    bucket: "signin:email",
    limit: 1_000_000,
    windowSeconds: SIGNIN_WINDOW_SECONDS,
  };
  if (ipCounter && !(await takeSlot(db, ipCounter, now))) throw refused(windowOf(ipCounter, now).retryAfterSeconds);
  // The row lock serialises concurrent attempts on one e-mail: each sees the failures the others recorded.
  const verdict = await db.transaction(async (tx) => {
    await tx.execute(sql`insert into signin_throttle (email) values (${who.email}) on conflict (email) do nothing`);
    const [row] = await tx.execute<{ failures: number; last_attempt_at: string | null }>(
      sql`select failures, last_attempt_at::text from signin_throttle where email = ${who.email} for update`,
    );
    const last = row?.last_attempt_at ? new Date(row.last_attempt_at).getTime() : null;
    const failures = last === null || now.getTime() - last > FORGET_AFTER_SECONDS * 1000 ? 0 : Number(row.failures);
    const readyAt = last === null ? 0 : last + signinDelaySeconds(failures) * 1000;
    if (readyAt > now.getTime()) return { ok: false, retryAfterSeconds: Math.ceil((readyAt - now.getTime()) / 1000) };
    await tx.execute(
      sql`update signin_throttle set failures = ${failures + 1}, last_attempt_at = ${now.toISOString()}::timestamptz where email = ${who.email}`,
    );
    return { ok: true, retryAfterSeconds: 0 };
  });
  if (!verdict.ok) {
    if (ipCounter) await giveSlot(db, ipCounter, now);
    throw refused(Math.max(1, verdict.retryAfterSeconds));
  }
  await takeSlot(db, emailCounter, now);
  return {
    release: async () => {
      await db.execute(sql`delete from signin_throttle where email = ${who.email}`);
      await giveSlot(db, emailCounter, now);
      if (ipCounter) await giveSlot(db, ipCounter, now);
    },
  };
}
