/**
 * A webhook lives only as long as the key that registered it and its account: revoking or expiring the key disables it
 * for good, deactivating the key or the account disables it until the key or account is switched back on (which
 * restores exactly the webhooks it disabled, recorded in webhooks.disabled_by, as api_keys.disabled_by does for keys).
 * The fan-out and the delivery worker check the key and the account as well (lib/webhooks/outbox.ts), so nothing is
 * delivered in the moment between a key ending and these functions running.
 */
import "server-only";
import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { apiKeys, webhooks } from "../../db/schema";
import { recordAudit, systemActor, type Actor } from "./audit";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Runner = Db | Tx;

export type DisabledBy =
  | "key_revoked"
  | "key_expired"
  | "key_deactivated"
  | "account_deactivated"
  | "plan_without_webhooks";

/** The reason the owner reads on the webhooks page and in the API's `disabledReason`. */
export function disabledReason(by: DisabledBy, key: { prefix: string; expiresAt?: Date | null }): string {
  const named = `The API key ${key.prefix}… that registered it`;
  switch (by) {
    case "key_revoked":
      return `${named} was revoked; register the webhook again with an active key.`;
    case "key_expired":
      return `${named} expired at ${key.expiresAt?.toISOString() ?? "its roll's end"}; register the webhook again with an active key.`;
    case "key_deactivated":
      return `${named} is deactivated; activating the key turns the webhook back on.`;
    case "account_deactivated":
      return "The account is deactivated; reactivating it turns the webhook back on.";
    case "plan_without_webhooks":
      return "The account's plan has no webhooks; moving back to Pro or Enterprise turns the webhook back on.";
  }
}

/** Ends for good: the key is revoked or expired. Such a webhook can only be deleted (or registered again). */
export const FINAL_CAUSES: readonly DisabledBy[] = ["key_revoked", "key_expired"];
/** Disabled until the key or the account is switched back on; a final cause replaces these. */
const TEMPORARY_CAUSES: DisabledBy[] = ["key_deactivated", "account_deactivated", "plan_without_webhooks"];

interface Changed {
  id: string;
  status: string;
  disabledBy: string | null;
}

async function audit(tx: Runner, accountId: string, rows: Changed[], to: Record<string, unknown>, actor: Actor) {
  for (const r of rows)
    await recordAudit(tx, {
      actor,
      accountId,
      action: to.status === "disabled" ? "webhook.disable" : "webhook.restore",
      target: `webhook:${r.id}`,
      before: { status: r.status, disabledBy: r.disabledBy },
      after: to,
    });
}

/** Locks and answers the webhooks `where` selects, with their state before the change. */
function lockWhere(tx: Runner, where: ReturnType<typeof and>) {
  return tx
    .select({ id: webhooks.id, status: webhooks.status, disabledBy: webhooks.disabledBy })
    .from(webhooks)
    .where(where)
    .for("update");
}

async function disable(
  tx: Runner,
  accountId: string,
  rows: Changed[],
  by: DisabledBy,
  reason: string,
  actor: Actor,
  now: Date,
) {
  if (rows.length === 0) return;
  const ids = rows.map((r) => r.id);
  await tx
    .update(webhooks)
    .set({ status: "disabled", disabledBy: by, disabledReason: reason, statusChangedAt: now })
    .where(inArray(webhooks.id, ids));
  // A final end cancels what was queued: nothing of a revoked or expired key is ever delivered.
  // A delivery a worker holds right now is skipped rather than waited for (no deadlock with its attempt's record);
  // it is never sent either way: claiming checks the key and the account (lib/webhooks/outbox.ts).
  if (FINAL_CAUSES.includes(by))
    await tx.execute(sql`
      update webhook_deliveries set status = 'cancelled', lease_token = null
      where id in (select id from webhook_deliveries
                   where webhook_id in (${sql.join(
                     ids.map((id) => sql`${id}`),
                     sql`, `,
                   )}) and status = 'pending'
                   for update skip locked)`);
  await audit(tx, accountId, rows, { status: "disabled", disabledBy: by, reason }, actor);
}

/** Live (active or paused) webhooks of a key, and those a temporary cause disabled: what a final end takes. */
const endable = (keyId: string) =>
  and(
    eq(webhooks.keyId, keyId),
    or(
      inArray(webhooks.status, ["active", "paused"]),
      and(eq(webhooks.status, "disabled"), inArray(webhooks.disabledBy, TEMPORARY_CAUSES)),
    ),
  );

/**
 * Follows a key's change of status inside its transaction: revoked disables its webhooks for good, inactive disables the
 * active ones until the key is activated again, active restores those. Returns the webhook ids changed.
 */
export async function followKeyStatus(
  tx: Runner,
  key: { id: string; accountId: string; prefix: string },
  status: "active" | "inactive" | "revoked",
  actor: Actor,
  now = new Date(),
): Promise<string[]> {
  if (status === "revoked") {
    const rows = await lockWhere(tx, endable(key.id));
    await disable(tx, key.accountId, rows, "key_revoked", disabledReason("key_revoked", key), actor, now);
    return rows.map((r) => r.id);
  }
  if (status === "inactive") {
    const rows = await lockWhere(tx, and(eq(webhooks.keyId, key.id), eq(webhooks.status, "active")));
    await disable(tx, key.accountId, rows, "key_deactivated", disabledReason("key_deactivated", key), actor, now);
    return rows.map((r) => r.id);
  }
  return restore(
    tx,
    key.accountId,
    and(eq(webhooks.keyId, key.id), eq(webhooks.disabledBy, "key_deactivated")),
    actor,
    now,
  );
}

/** Deactivation disables the account's active webhooks; reactivation restores exactly those. Returns the ids changed. */
export async function followAccountStatus(
  tx: Runner,
  accountId: string,
  status: "active" | "inactive",
  actor: Actor,
  now = new Date(),
): Promise<string[]> {
  if (status === "inactive") {
    const rows = await lockWhere(tx, and(eq(webhooks.accountId, accountId), eq(webhooks.status, "active")));
    await disable(
      tx,
      accountId,
      rows,
      "account_deactivated",
      disabledReason("account_deactivated", { prefix: "" }),
      actor,
      now,
    );
    return rows.map((r) => r.id);
  }
  return restore(
    tx,
    accountId,
    and(eq(webhooks.accountId, accountId), eq(webhooks.disabledBy, "account_deactivated")),
    actor,
    now,
  );
}

async function restore(
  tx: Runner,
  accountId: string,
  where: ReturnType<typeof and>,
  actor: Actor,
  now: Date,
): Promise<string[]> {
  const rows = await lockWhere(tx, and(where, eq(webhooks.status, "disabled")));
  if (rows.length === 0) return [];
  await tx
    .update(webhooks)
    .set({ status: "active", disabledBy: null, disabledReason: null, statusChangedAt: now, failingSince: null })
    .where(
      inArray(
        webhooks.id,
        rows.map((r) => r.id),
      ),
    );
  await audit(tx, accountId, rows, { status: "active" }, actor);
  // A key that expired while it was switched off ends its webhooks now rather than at the next sweep.
  await disableExpiredKeyWebhooks(tx, now, accountId);
  return rows.map((r) => r.id);
}

/**
 * Keys end by themselves when a roll's overlap runs out: disables (for good) the webhooks of every key expired by
 * `now`, optionally of one account only. Run by the delivery worker and before the webhooks are listed.
 */
export async function disableExpiredKeyWebhooks(tx: Runner, now = new Date(), accountId?: string): Promise<number> {
  const expired = await tx
    .select({ id: apiKeys.id, accountId: apiKeys.accountId, prefix: apiKeys.prefix, expiresAt: apiKeys.expiresAt })
    .from(apiKeys)
    .where(
      and(
        sql`${apiKeys.expiresAt} <= ${now.toISOString()}::timestamptz`,
        accountId ? eq(apiKeys.accountId, accountId) : undefined,
        sql`exists (select 1 from ${webhooks} w where w.key_id = ${apiKeys.id} and (w.status in ('active', 'paused') or w.disabled_by in ('key_deactivated', 'account_deactivated')))`,
      ),
    );
  let n = 0;
  for (const key of expired) {
    // Under the row locks a webhook another process already ended no longer matches: one audit row per change.
    n += await tx.transaction(async (inner) => {
      const rows = await lockWhere(inner, endable(key.id));
      const reason = disabledReason("key_expired", key);
      await disable(inner, key.accountId, rows, "key_expired", reason, systemActor("key-expiry"), now);
      return rows.length;
    });
  }
  return n;
}

/**
 * Follows a plan change inside its transaction (issue 30): a plan without webhooks disables the account's active
 * webhooks until a plan with webhooks restores exactly those. Returns the webhook ids changed.
 */
export async function followAccountPlan(
  tx: Runner,
  accountId: string,
  webhooksAllowed: boolean,
  actor: Actor,
  now = new Date(),
): Promise<string[]> {
  const cause: DisabledBy = "plan_without_webhooks";
  if (webhooksAllowed)
    return restore(tx, accountId, and(eq(webhooks.accountId, accountId), eq(webhooks.disabledBy, cause)), actor, now);
  const rows = await lockWhere(tx, and(eq(webhooks.accountId, accountId), eq(webhooks.status, "active")));
  await disable(tx, accountId, rows, cause, disabledReason(cause, { prefix: "" }), actor, now);
  return rows.map((r) => r.id);
}
