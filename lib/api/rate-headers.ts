/** RateLimit-Policy / RateLimit (IETF httpapi ratelimit-headers, structured fields) and the classic X-RateLimit-*. */
import { secondsLeft, windowSeconds, type Window } from "../limits/windows";

export function rateLimitHeaders(
  burst: Window,
  burstUsed: number,
  quota: Window,
  quotaUsed: number,
  now: Date,
): Record<string, string> {
  const burstLeft = Math.max(0, burst.limit - burstUsed);
  const quotaLeft = Math.max(0, quota.limit - quotaUsed);
  const burstReset = secondsLeft(burst, now);
  return {
    "ratelimit-policy": `"minute";q=${burst.limit};w=60, "${quota.name}";q=${quota.limit};w=${windowSeconds(quota)}`,
    ratelimit: `"minute";r=${burstLeft};t=${burstReset}, "${quota.name}";r=${quotaLeft};t=${secondsLeft(quota, now)}`,
    "x-ratelimit-limit": String(burst.limit),
    "x-ratelimit-remaining": String(burstLeft),
    // Unix time (seconds) at which the burst window resets, as GitHub and most clients expect.
    "x-ratelimit-reset": String(Math.floor(burst.end.getTime() / 1000)),
  };
}
