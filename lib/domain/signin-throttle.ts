/**
 * Failed sign-ins throttled per e-mail and per client address (buckets `signin:email` and `signin:ip`, 15-minute
 * fixed windows on usage_counters). Each attempt takes a slot; a correct password gives it back, so only failures
 * count and concurrent guesses never get more than the limit.
 */
import "server-only";
import type { Db } from "../db/client";
import { waitMessage } from "../shared/wait-message";
import { DomainError } from "./errors";
import { giveSlot, takeSlot, windowOf, type Counter } from "./portal-counters";

export const SIGNIN_WINDOW_SECONDS = 15 * 60;
export const SIGNIN_LIMITS = { email: 5, ip: 30 } as const;

export interface SigninAttempt {
  /** The password was right: the attempt does not count as a failure. */
  release(): Promise<void>;
}

/** Takes one attempt for this e-mail and address, or throws rate_limited with the seconds until the window ends. */
export async function takeSigninAttempt(
  db: Db,
  who: { email: string; ip?: string },
  now = new Date(),
): Promise<SigninAttempt> {
  const counters: Counter[] = [
    { key: who.email, bucket: "signin:email", limit: SIGNIN_LIMITS.email, windowSeconds: SIGNIN_WINDOW_SECONDS },
  ];
  if (who.ip)
    counters.push({ key: who.ip, bucket: "signin:ip", limit: SIGNIN_LIMITS.ip, windowSeconds: SIGNIN_WINDOW_SECONDS });
  const taken: Counter[] = [];
  for (const counter of counters) {
    if (await takeSlot(db, counter, now)) {
      taken.push(counter);
      continue;
    }
    for (const t of taken) await giveSlot(db, t, now);
    const { retryAfterSeconds } = windowOf(counter, now);
    throw new DomainError("rate_limited", waitMessage(retryAfterSeconds), { retryAfterSeconds });
  }
  return {
    release: async () => {
      for (const t of taken) await giveSlot(db, t, now);
    },
  };
}
