/** Standard Webhooks signing: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, keyed by the base64 part of `whsec_…`. */
import { createHmac, randomBytes } from "node:crypto";

const PREFIX = "whsec_";

export function newSigningSecret(): string {
  return `${PREFIX}${randomBytes(24).toString("base64")}`;
}

export function sign(secret: string, id: string, timestampSec: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestampSec}.${body}`).digest("base64")}`;
}

/** The three Standard Webhooks headers; every secret still valid signs (space-separated signatures). */
export function signedHeaders(
  secrets: string[],
  id: string,
  timestampSec: number,
  body: string,
): Record<string, string> {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestampSec),
    "webhook-signature": secrets.map((s) => sign(s, id, timestampSec, body)).join(" "),
  };
}
