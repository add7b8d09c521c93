/**
 * Webhook status transitions and secret rotation, scoped to the owning account, each with its audit row.
 * Owner: active ⇄ paused, disabled → active (re-enable), any → deleted (DELETE). Service: active → disabled.
 * A webhook disabled by its key or account (webhooks.disabled_by) follows them instead: see webhook-lifecycle.ts.
 */
import "server-only";
import type postgres from "postgres";
import type { Database } from "../db/client";
import { clientOf, iso } from "../db/tx";
import { newSigningSecret } from "../webhooks/signing";
import { sealSigningSecret } from "../webhooks/secret-store";
import { recordAudit, type Actor } from "./audit";
import { DomainError } from "./errors";

export type OwnerStatus = "active" | "paused";
export const SECRET_OVERLAP_MS = 24 * 3_600_000;

interface Row {
  id: string;
  status: string;
  disabled_by: string | null;
  /** The key that registered it is active and unexpired, and the account active. */
  deliverable: boolean;
}

async function ownedRow(tx: postgres.Sql, accountId: string, webhookId: string, now: Date): Promise<Row | null> {
  const [row] = await tx<Row[]>`
    select w.id, w.status, w.disabled_by,
      (k.status = 'active' and (k.expires_at is null or k.expires_at > ${iso(now)}) and a.status = 'active') as deliverable
    from webhooks w join api_keys k on k.id = w.key_id join accounts a on a.id = w.account_id
    where w.id = ${webhookId} and w.account_id = ${accountId} and w.status <> 'deleted' for update of w`;
  return row ?? null;
}

/** Why a webhook cannot be turned on while its key or account is off (null when it can). */
function blockedByOwner(row: Row): string | null {
  if (row.disabled_by === "key_revoked" || row.disabled_by === "key_expired")
    return "The API key that registered this webhook has ended; it can only be deleted (register it again with an active key).";
  if (row.disabled_by === "key_deactivated")
    return "The API key that registered this webhook is deactivated: activate the key first.";
  if (row.disabled_by === "account_deactivated" || !row.deliverable)
    return "The API key that registered this webhook, or its account, is not active: nothing can be delivered to it.";
  return null;
}

/** Pauses or resumes (re-enables a disabled one). Returns null when the account has no such webhook. */
export async function setWebhookStatus(
  database: Database,
  accountId: string,
  webhookId: string,
  status: OwnerStatus,
  actor: Actor,
  now = new Date(),
): Promise<{ id: string } | null> {
  return database.db.transaction(async (dtx) => {
    const tx = clientOf(dtx);
    const row = await ownedRow(tx, accountId, webhookId, now);
    if (!row) return null;
    if (row.status === status) return { id: row.id };
    if (row.status === "disabled" && status === "paused") {
      throw new DomainError("invalid", "A disabled webhook can only be re-enabled (status active) or deleted.");
    }
    const blocked = status === "active" ? blockedByOwner(row) : null;
    if (blocked) throw new DomainError("invalid", blocked);
    // Re-enabling starts the 5-day failure clock afresh and releases deliveries that were waiting.
    await tx`update webhooks set status = ${status}, status_changed_at = ${iso(now)}, disabled_reason = null, disabled_by = null,
               failing_since = case when ${status} = 'active' then null else failing_since end
             where id = ${webhookId}`;
    if (status === "active")
      await tx`update webhook_deliveries set next_attempt_at = ${iso(now)} where webhook_id = ${webhookId} and status = 'pending' and next_attempt_at > ${iso(now)}`;
    await recordAudit(dtx, {
      actor,
      accountId,
      action: status === "paused" ? "webhook.pause" : "webhook.resume",
      target: `webhook:${webhookId}`,
      before: { status: row.status },
      after: { status },
    });
    return { id: row.id };
  });
}

export interface RotatedSecret {
  webhookId: string;
  signingSecret: string;
  previousSecretExpiresAt: string;
}

/** A new secret (answered once, stored sealed); the old one keeps signing (a second signature) for 24 hours. */
export async function rotateWebhookSecret(
  database: Database,
  accountId: string,
  webhookId: string,
  actor: Actor,
  now = new Date(),
): Promise<RotatedSecret | null> {
  return database.db.transaction(async (dtx) => {
    const tx = clientOf(dtx);
    const row = await ownedRow(tx, accountId, webhookId, now);
    if (!row) return null;
    const secret = newSigningSecret();
    const expires = new Date(now.getTime() + SECRET_OVERLAP_MS);
    await tx`update webhooks set previous_secret = signing_secret, previous_secret_expires_at = ${iso(expires)},
               signing_secret = ${sealSigningSecret(secret, webhookId)} where id = ${webhookId}`;
    await recordAudit(dtx, {
      actor,
      accountId,
      action: "webhook.rotate_secret",
      target: `webhook:${webhookId}`,
      after: { previousSecretExpiresAt: expires.toISOString() },
    });
    return { webhookId, signingSecret: secret, previousSecretExpiresAt: expires.toISOString() };
  });
}
