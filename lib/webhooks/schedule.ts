/** The retry schedule (Standard Webhooks / Svix): delays after each failed attempt, with ±10 % jitter. */
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const JITTER = 0.1;
/** An endpoint whose deliveries have failed without a success for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3_600_000;
export const ATTEMPT_TIMEOUT_MS = 15_000;
export const MAX_RESPONSE_BYTES = 4096;
export const RESPONSE_EXCERPT_CHARS = 512;

/** Delay before the next attempt after `attemptsMade` failed attempts, or null when the schedule is spent. */
export function retryDelayMs(attemptsMade: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[attemptsMade - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 + JITTER * (2 * random() - 1)));
}
