/**
 * Failed sign-ins (docs/security.md "Sign-in throttling"). Three rules, none a lock the owner cannot get past:
 * - A growing delay per (e-mail, client address): SIGNIN_LIMITS.email attempts freely, then each attempt waits a delay
 *   that doubles with every consecutive failure (1 minute, 2, 4 … capped at 15) from the last attempt. An attacker's
 *   failures from their addresses never delay the owner's own address; a correct password clears the pair's record.
 * - A ceiling per e-mail across all addresses (SIGNIN_LIMITS.emailCeiling failures per 15-minute window) bounds
 *   distributed guessing.
 * - A budget per client address (SIGNIN_LIMITS.ip failures per 15-minute window) slows the address that fails.
 * An address the user signed in from in the last KNOWN_ADDRESS_DAYS days (a portal session started there) is exempt
 * from the ceiling and the address budget, so neither a distributed attack nor a colleague's typos behind a shared
 * address can refuse the owner's correct password. An attempt counts as a failure from the moment it is taken
 * (concurrent guesses cannot overtake the count); `release` gives it back when the password was right.
 */
import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { waitMessage } from "../shared/wait-message";
import { DomainError } from "./errors";
import { giveSlot, takeSlot, windowOf, type Counter } from "./portal-counters";

export const SIGNIN_WINDOW_SECONDS = 15 * 60;
export const SIGNIN_LIMITS = { email: 5, emailCeiling: 100, ip: 30 } as const;
/** An address with a portal session for the user started within this many days is the user's own. */
export const KNOWN_ADDRESS_DAYS = 30;
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

/** The user signed in from this address within KNOWN_ADDRESS_DAYS (a session started there, ended or not). */
async function knownAddress(db: Db, email: string, ip: string, now: Date): Promise<boolean> {
  const rows = await db.execute(sql`
    select 1 from portal_sessions s join users u on u.id = s.user_id
    where u.email = ${email} and s.ip = ${ip}
      and s.created_at > ${now.toISOString()}::timestamptz - make_interval(days => ${KNOWN_ADDRESS_DAYS})
    limit 1`);
  return rows.length > 0;
}

/** The delay record of one (e-mail, address) pair: the table's key column holds both. */
const pairKey = (who: { email: string; ip?: string }) => `${who.email} ${who.ip ?? "-"}`;

/** Takes one attempt for this e-mail and address, or throws rate_limited with the seconds left to wait. */
export async function takeSigninAttempt(
  db: Db,
  who: { email: string; ip?: string },
  now = new Date(),
): Promise<SigninAttempt> {
  const known = who.ip ? await knownAddress(db, who.email, who.ip, now) : false;
  const window = SIGNIN_WINDOW_SECONDS;
  const counters: Counter[] = known
    ? []
    : [
        ...(who.ip ? [{ key: who.ip, bucket: "signin:ip", limit: SIGNIN_LIMITS.ip, windowSeconds: window }] : []),
        { key: who.email, bucket: "signin:email", limit: SIGNIN_LIMITS.emailCeiling, windowSeconds: window },
      ];
  const taken: Counter[] = [];
  const giveBack = () => Promise.all(taken.map((c) => giveSlot(db, c, now)));
  for (const counter of counters) {
    if (!(await takeSlot(db, counter, now))) {
      await giveBack();
      throw refused(windowOf(counter, now).retryAfterSeconds);
    }
    taken.push(counter);
  }
  const key = pairKey(who);
  // The row lock serialises concurrent attempts on one pair: each sees the failures the others recorded.
  const verdict = await db.transaction(async (tx) => {
    await tx.execute(sql`insert into signin_throttle (email) values (${key}) on conflict (email) do nothing`);
    const [row] = await tx.execute<{ failures: number; last_attempt_at: string | null }>(
      sql`select failures, last_attempt_at::text from signin_throttle where email = ${key} for update`,
    );
    const last = row?.last_attempt_at ? new Date(row.last_attempt_at).getTime() : null;
    const failures = last === null || now.getTime() - last > FORGET_AFTER_SECONDS * 1000 ? 0 : Number(row.failures);
    const readyAt = last === null ? 0 : last + signinDelaySeconds(failures) * 1000;
    if (readyAt > now.getTime()) return { ok: false, retryAfterSeconds: Math.ceil((readyAt - now.getTime()) / 1000) };
    await tx.execute(
      sql`update signin_throttle set failures = ${failures + 1}, last_attempt_at = ${now.toISOString()}::timestamptz where email = ${key}`,
    );
    return { ok: true, retryAfterSeconds: 0 };
  });
  if (!verdict.ok) {
    await giveBack();
    throw refused(Math.max(1, verdict.retryAfterSeconds));
  }
  return {
    release: async () => {
      await db.execute(sql`delete from signin_throttle where email = ${key}`);
      await giveBack();
    },
  };
}
