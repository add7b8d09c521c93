/**
 * Webhook signing secrets at rest: sealed like the playground and issued keys (lib/crypto/secret-box: AES-256-GCM under
 * a key derived from AUTH_SECRET), bound to the webhook id, and opened only to sign a delivery.
 */
import "server-only";
import type postgres from "postgres";
import { open, readAuthSecret, seal } from "../crypto/secret-box";

const PURPOSE = "webhook-signing-secret";
/** What a secret looks like in clear (lib/webhooks/signing.ts); a stored value never does. */
const PLAIN = "whsec\\_%";

export const sealSigningSecret = (secret: string, webhookId: string, authSecret = readAuthSecret()): string =>
  seal(secret, authSecret, PURPOSE, webhookId);

export const openSigningSecret = (sealed: string, webhookId: string, authSecret = readAuthSecret()): string =>
  open(sealed, authSecret, PURPOSE, webhookId);

/**
 * Seals every secret still stored in clear (rows written before migration 0015); answers how many rows changed. Safe to
 * run in several processes at once: a row is rewritten only while it still holds the clear value that was read.
 */
export async function sealPlainSigningSecrets(sql: postgres.Sql, authSecret: string): Promise<number> {
  const rows = await sql<{ id: string; signing_secret: string; previous_secret: string | null }[]>`
    select id, signing_secret, previous_secret from webhooks
    where signing_secret like ${PLAIN} or previous_secret like ${PLAIN}`;
  let changed = 0;
  for (const r of rows) {
    const sealIfPlain = (v: string | null) => (v?.startsWith("whsec_") ? sealSigningSecret(v, r.id, authSecret) : v);
    const done = await sql`
      update webhooks set signing_secret = ${sealIfPlain(r.signing_secret)}, previous_secret = ${sealIfPlain(r.previous_secret)}
      where id = ${r.id} and signing_secret = ${r.signing_secret} and previous_secret is not distinct from ${r.previous_secret}`;
    changed += done.count;
  }
  return changed;
}
