/**
 * Webhook status transitions and secret rotation, scoped to the owning account.
 * Owner: active ⇄ paused, disabled → active (re-enable), any → deleted (DELETE). Service: active → disabled.
 */
import "server-only";
import type { Database } from "../db/client";
import { inTransaction } from "../db/tx";
import { newSigningSecret } from "../webhooks/signing";
import { DomainError } from "./errors";
import { iso } from "../db/tx";

export type OwnerStatus = "active" | "paused";
export const SECRET_OVERLAP_MS = 24 * 3_600_000;

interface Row {
  id: string;
  status: string;
}

async function ownedRow(tx: Database["sql"], accountId: string, webhookId: string): Promise<Row | null> {
  const [row] = await tx<
    Row[]
  >`select id, status from webhooks where id = ${webhookId} and account_id = ${accountId} and status <> 'deleted' for update`;
  return row ?? null;
}

/** Pauses or resumes (re-enables a disabled one). Returns null when the account has no such webhook. */
export async function setWebhookStatus(
  database: Database,
  accountId: string,
  webhookId: string,
  status: OwnerStatus,
  now = new Date(),
): Promise<{ id: string } | null> {
  return inTransaction(database.sql, async (tx) => {
    const row = await ownedRow(tx as unknown as Database["sql"], accountId, webhookId);
    if (!row) return null;
    if (row.status === status) return { id: row.id };
    if (row.status === "disabled" && status === "paused") {
      throw new DomainError("invalid", "A disabled webhook can only be re-enabled (status active) or deleted.");
    }
    // Re-enabling starts the 5-day failure clock afresh and releases deliveries that were waiting.
    await tx`update webhooks set status = ${status}, status_changed_at = ${iso(now)}, disabled_reason = null,
               failing_since = case when ${status} = 'active' then null else failing_since end
             where id = ${webhookId}`;
    if (status === "active")
      await tx`update webhook_deliveries set next_attempt_at = ${iso(now)} where webhook_id = ${webhookId} and status = 'pending' and next_attempt_at > ${iso(now)}`;
    return { id: row.id };
  });
}

export interface RotatedSecret {
  webhookId: string;
  signingSecret: string;
  previousSecretExpiresAt: string;
}

/** A new secret; the old one keeps signing (a second signature) for 24 hours. */
export async function rotateWebhookSecret(
  database: Database,
  accountId: string,
  webhookId: string,
  now = new Date(),
): Promise<RotatedSecret | null> {
  return inTransaction(database.sql, async (tx) => {
    const row = await ownedRow(tx as unknown as Database["sql"], accountId, webhookId);
    if (!row) return null;
    const secret = newSigningSecret();
    const expires = new Date(now.getTime() + SECRET_OVERLAP_MS);
    await tx`update webhooks set previous_secret = signing_secret, previous_secret_expires_at = ${iso(expires)}, signing_secret = ${secret} where id = ${webhookId}`;
    return { webhookId, signingSecret: secret, previousSecretExpiresAt: expires.toISOString() };
  });
}
