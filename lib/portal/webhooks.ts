/**
 * What the portal's webhook routes share. A portal-registered webhook belongs to one of the account's active API keys
 * the user picks: its environment (test or live) is that key's, so test keys get demo events and live keys live ones.
 */
import type { Db } from "../db/client";
import { DomainError } from "../domain/errors";
import { listKeys } from "../domain/keys";
import { currentPlan } from "../domain/plans";

export async function requireWebhookPlan(db: Db, accountId: string): Promise<void> {
  const plan = await currentPlan(db, accountId);
  if (!plan.webhooks)
    throw new DomainError(
      "subscription_required",
      `Webhooks need the Pro or Enterprise plan; this account is on ${plan.nameA}.`,
    );
}

/** The owner a registration needs: an active key of this account (another account's key answers like a missing one). */
export async function webhookOwner(
  db: Db,
  accountId: string,
  keyId: string,
): Promise<{ accountId: string; keyId: string; env: "test" | "live" }> {
  const key = (await listKeys(db, accountId)).find((k) => k.id === keyId && k.state === "active");
  if (!key) throw new DomainError("invalid", "Choose one of your active API keys.", { field: "keyId" });
  return { accountId, keyId: key.id, env: key.env };
}

/** A domain answer of null means: no such webhook for this account. */
export function found<T>(value: T | null): T {
  if (value === null) throw new DomainError("not_found", "No such webhook for this account.");
  return value;
}
