/**
 * Hourly limits on the portal's cheap-to-ask, costly-to-grant actions: sign-ups per client address, key creations per
 * account and per client address. Counted on usage_counters like the other portal counters (exact under concurrency).
 */
import type { Db } from "../db/client";
import { DomainError } from "./errors";
import { giveSlot, takeSlot, windowOf, type Counter } from "./portal-counters";

export const PORTAL_LIMITS = {
  signupPerAddress: 10,
  keyCreatePerAccount: 30,
  keyCreatePerAddress: 60,
  /** Reset completions per client address (every attempt counts) and per live token (each may cost one hash). */
  resetCompletePerAddress: 30,
  resetCompletePerToken: 5,
} as const;
const HOUR = 3600;

/** Loopback is this machine (a local run, the test suites): no per-address limit; per-account limits still apply. */
const isLoopback = (ip: string) => ip === "::1" || ip.startsWith("127.");
const perAddress = (ip: string | undefined): ip is string => Boolean(ip) && !isLoopback(ip as string);

/** Takes one slot of each counter or none: throws rate_limited with the wait when any is full. */
export async function takeHourly(db: Db, counters: Counter[], what: string, now = new Date()): Promise<void> {
  const taken: Counter[] = [];
  for (const c of counters) {
    if (await takeSlot(db, c, now)) {
      taken.push(c);
      continue;
    }
    for (const t of taken) await giveSlot(db, t, now);
    const { retryAfterSeconds } = windowOf(c, now);
    const minutes = Math.ceil(retryAfterSeconds / 60);
    throw new DomainError(
      "rate_limited",
      `Too many ${what} in the last hour; wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
      { retryAfterSeconds },
    );
  }
}

export const signupCounters = (ip: string | undefined): Counter[] =>
  perAddress(ip)
    ? [{ key: ip, bucket: "portal:signup:ip", limit: PORTAL_LIMITS.signupPerAddress, windowSeconds: HOUR }]
    : [];

export const keyCreateCounters = (accountId: string, ip: string | undefined): Counter[] => [
  { key: accountId, bucket: "portal:key:account", limit: PORTAL_LIMITS.keyCreatePerAccount, windowSeconds: HOUR },
  ...(perAddress(ip)
    ? [{ key: ip, bucket: "portal:key:ip", limit: PORTAL_LIMITS.keyCreatePerAddress, windowSeconds: HOUR }]
    : []),
];

export const resetAddressCounters = (ip: string | undefined): Counter[] =>
  perAddress(ip)
    ? [{ key: ip, bucket: "portal:reset:ip", limit: PORTAL_LIMITS.resetCompletePerAddress, windowSeconds: HOUR }]
    : [];

/** Keyed by the token's digest (the raw token is never stored); only a live token gets a counter. */
export const resetTokenCounters = (digest: string): Counter[] => [
  { key: digest, bucket: "portal:reset:token", limit: PORTAL_LIMITS.resetCompletePerToken, windowSeconds: HOUR },
];
