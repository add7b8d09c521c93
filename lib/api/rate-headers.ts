/** RateLimit-Policy / RateLimit (IETF httpapi ratelimit-headers, structured fields) and the classic X-RateLimit-*. */
import { createHash } from "node:crypto";
import { BoundedMemo } from "../util/bounded-memo";
import { secondsLeft, windowSeconds, type Window } from "../limits/windows";

/** Who a window counts: the burst the calling key, the quota its account in the key's environment (docs/api-contract.md §4). */
export interface Partitions {
  keyId: string;
  accountId: string;
  env: "test" | "live";
}

/** The draft's `pk` parameter: an opaque byte sequence, equal for every request counted by the same counter. */
const pk = (partition: string) =>
  `;pk=:${createHash("sha256").update(partition).digest().subarray(0, 9).toString("base64")}:`;
const suffixes = new BoundedMemo<string, { burst: string; quota: string }>(4096);

function partitionSuffixes(p: Partitions) {
  return suffixes.get(`${p.keyId}|${p.accountId}|${p.env}`, () => ({
    burst: pk(`key:${p.keyId}`),
    quota: pk(`account:${p.accountId}:${p.env}`),
  }));
}

export function rateLimitHeaders(
  burst: Window,
  burstUsed: number,
  quota: Window,
  quotaUsed: number,
  now: Date,
  partitions?: Partitions,
): Record<string, string> {
  const burstLeft = Math.max(0, burst.limit - burstUsed);
  const quotaLeft = Math.max(0, quota.limit - quotaUsed);
  const burstReset = secondsLeft(burst, now);
  const k = partitions ? partitionSuffixes(partitions) : { burst: "", quota: "" };
  return {
    "ratelimit-policy": `"minute";q=${burst.limit};w=60${k.burst}, "${quota.name}";q=${quota.limit};w=${windowSeconds(quota)}${k.quota}`,
    ratelimit: `"minute";r=${burstLeft};t=${burstReset}${k.burst}, "${quota.name}";r=${quotaLeft};t=${secondsLeft(quota, now)}${k.quota}`,
    "x-ratelimit-limit": String(burst.limit),
    "x-ratelimit-remaining": String(burstLeft),
    // Unix time (seconds) at which the burst window resets, as GitHub and most clients expect.
    "x-ratelimit-reset": String(Math.floor(burst.end.getTime() / 1000)),
  };
}
