/**
 * API key format: `svc_test_<secret>`, `svc_live_<secret>`, `svc_sk_live_<secret>`.
 * <secret> = 24 base62 characters of randomness (~142 bits) + 6 base62 characters of CRC-32 over prefix and
 * randomness, so a mistyped or made-up key is rejected without a database lookup.
 */
import { createHash, randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";

export type KeyKind = "test" | "live" | "sk_live";
const KIND_PREFIX: Record<KeyKind, string> = { test: "svc_test_", live: "svc_live_", sk_live: "svc_sk_live_" };
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_LEN = 24;
const CHECK_LEN = 6;
const KEY_PATTERN = /^svc_(test|live|sk_live)_([0-9A-Za-z]{30})$/;
/** Characters of the secret kept in the non-secret display prefix. */
const DISPLAY_CHARS = 4;

function base62Random(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62]; // 248 = 4 × 62: rejection keeps it uniform
    }
  }
  return out;
}

function checksum(body: string): string {
  let n = crc32(body);
  let out = "";
  for (let i = 0; i < CHECK_LEN; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export interface GeneratedKey {
  key: string;
  digest: string;
  prefix: string;
}

export function generateKey(kind: KeyKind): GeneratedKey {
  const head = KIND_PREFIX[kind];
  const random = base62Random(RANDOM_LEN);
  const key = head + random + checksum(head + random);
  return { key, digest: digestKey(key), prefix: displayPrefix(key) };
}

export interface ParsedKey {
  kind: KeyKind;
  digest: string;
}

/** Returns null for anything that is not a well-formed key with a valid checksum. */
export function parseKey(key: string): ParsedKey | null {
  const m = KEY_PATTERN.exec(key);
  if (!m) return null;
  const kind = m[1] as KeyKind;
  const secret = m[2];
  const head = KIND_PREFIX[kind];
  if (checksum(head + secret.slice(0, RANDOM_LEN)) !== secret.slice(RANDOM_LEN)) return null;
  return { kind, digest: digestKey(key) };
}

export function digestKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export function displayPrefix(key: string): string {
  const m = KEY_PATTERN.exec(key);
  if (!m) return "";
  return KIND_PREFIX[m[1] as KeyKind] + m[2].slice(0, DISPLAY_CHARS);
}

export function keyKindFor(env: "test" | "live", style: "standard" | "sk"): KeyKind {
  if (env === "test") return "test";
  return style === "sk" ? "sk_live" : "live";
}
