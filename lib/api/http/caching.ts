/**
 * Validators and freshness for GET answers (docs/api-contract.md §11): a weak ETag from the payload's version,
 * `If-None-Match` → 304, and `Cache-Control: private, max-age=N` with N the seconds to the next market data update.
 */
import { createHash } from "node:crypto";
import { BoundedMemo } from "../../util/bounded-memo";

/** The market store takes a new as-of time every this many seconds (the demo ticker's interval). */
export const MARKET_UPDATE_SECONDS = 5;

/**
 * Weak: the payload decides it, while the envelope around it (generated_at, request_id, timestamp) differs on every
 * answer; the representations are equivalent, not byte-identical.
 */
export function entityTag(status: number, contentType: string, payload: string): string {
  if (status === 200 && contentType === JSON_TYPE && payload.length <= KEPT_PAYLOAD_CHARS)
    return keptTags.get(payload, jsonTag);
  return digestTag(status, contentType, payload);
}

/**
 * A cached answer's payload is the same string on every call (lib/api/envelope.ts serialises each payload once), and a
 * string's hash is computed once and kept with it: so its tag is looked up rather than hashed again. Bounded in count,
 * and only payloads up to 64 K characters are kept, so the table holds at most a few MB of strings alive.
 */
const JSON_TYPE = "application/json; charset=utf-8";
const KEPT_PAYLOAD_CHARS = 65_536;
const keptTags = new BoundedMemo<string, string>(128);
const jsonTag = (payload: string) => digestTag(200, JSON_TYPE, payload);

function digestTag(status: number, contentType: string, payload: string): string {
  const digest = createHash("sha1").update(`${status}\n${contentType}\n`).update(payload).digest("base64url");
  return `W/"${digest.slice(0, 22)}"`;
}

/** Weak comparison (RFC 9110 §13.1.2): `*` or any listed tag equal to `etag` once the W/ prefixes are dropped. */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  const mine = opaque(etag);
  return header.split(",").some((tag) => opaque(tag) === mine);
}

/**
 * Market data: `private, max-age=N`, N the whole seconds until the data's as-of time plus MARKET_UPDATE_SECONDS (0 once
 * that is past: the next update is due). Account resources and the reference: `private, no-cache` (kept, revalidated).
 */
export function cacheControl(asOf: Date | undefined, now: Date): string {
  if (asOf === undefined) return "private, no-cache";
  const due = asOf.getTime() + MARKET_UPDATE_SECONDS * 1000 - now.getTime();
  const seconds = Math.min(MARKET_UPDATE_SECONDS, Math.max(0, Math.ceil(due / 1000)));
  return `private, max-age=${seconds}`;
}
