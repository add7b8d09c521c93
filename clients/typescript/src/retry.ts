/** When to retry and how long to wait: jittered exponential backoff, or the server's Retry-After when it gives one. */

export const BASE_DELAY_MS = 500;
export const MAX_DELAY_MS = 8_000;
/** A Retry-After longer than this is not waited for: the error goes back to the caller instead. */
export const MAX_RETRY_AFTER_S = 60;

/**
 * Statuses a retry can fix, as generated SDKs retry them: 408 (timeout), 409 (the first attempt with this
 * Idempotency-Key still running; a GET is never in conflict), 429 (the per-minute limit) and every 5xx. A POST or PATCH
 * is retried only with its Idempotency-Key, so a retry never acts twice.
 */
export const isRetryableStatus = (status: number): boolean =>
  status === 408 || status === 409 || status === 429 || status >= 500;

/** Delay before retry `attempt` (1-based): the server's Retry-After plus a little jitter, else backoff with full jitter. */
export function retryDelayMs(attempt: number, retryAfterS: number | null, random: () => number = Math.random): number {
  if (retryAfterS !== null) return retryAfterS * 1000 + Math.floor(random() * 250);
  const cap = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (attempt - 1));
  return Math.floor(cap / 2 + (random() * cap) / 2);
}

/** Retry-After in seconds (delta-seconds or an HTTP date), or null. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
