/** Standard Webhooks verification with Web Crypto (runs in Node 20+, browsers and edge runtimes). */
import type { WebhookEvent } from "./types.js";

export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
}

export interface VerifyOptions {
  /** Accepted distance between `webhook-timestamp` and now, in seconds (default 300, as the Standard Webhooks libraries). */
  toleranceSeconds?: number;
  /** The current time, for tests. */
  now?: Date;
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | null {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name);
  const rec = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(rec).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : rec[key];
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
}

function base64ToBytes(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function bytesToBase64(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** Compares without an early exit, so the time taken says nothing about where two signatures differ. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

async function sign(secret: string, content: Uint8Array): Promise<string> {
  const raw = secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret;
  let keyBytes: Uint8Array;
  try {
    keyBytes = base64ToBytes(raw);
  } catch {
    throw new WebhookVerificationError("The signing secret is not a whsec_ base64 secret.");
  }
  const key = await globalThis.crypto.subtle.importKey(
    "raw",
    keyBytes as BufferSource,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return bytesToBase64(new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", key, content as BufferSource)));
}

/**
 * Verifies an alert delivery and returns its parsed event. `payload` is the raw body exactly as received; `secret`
 * may be two secrets during a rotation (either verifies). Throws WebhookVerificationError on a missing header, a
 * timestamp outside the tolerance, or no matching signature.
 */
export async function verifyWebhook(
  payload: string | Uint8Array,
  headers: HeaderSource,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): Promise<WebhookEvent> {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError("Missing webhook-id, -timestamp or -signature.");
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError("webhook-timestamp is not Unix seconds.");
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs(now - Number(timestamp)) > tolerance)
    throw new WebhookVerificationError("webhook-timestamp is too old or too new.");
  const body = typeof payload === "string" ? payload : new TextDecoder().decode(payload);
  const content = new TextEncoder().encode(`${id}.${timestamp}.${body}`);
  const offered = signatures
    .split(" ")
    .map((s) => s.split(","))
    .filter((p) => p.length === 2 && p[0] === "v1")
    .map((p) => p[1]);
  const secrets = typeof secret === "string" ? [secret] : secret;
  if (secrets.length === 0) throw new WebhookVerificationError("No signing secret given.");
  for (const s of secrets) {
    const expected = await sign(s, content);
    if (offered.some((o) => constantTimeEqual(o, expected))) {
      try {
        return JSON.parse(body) as WebhookEvent;
      } catch {
        throw new WebhookVerificationError("The signed body is not JSON.");
      }
    }
  }
  throw new WebhookVerificationError("No signature matches the signing secret.");
}
