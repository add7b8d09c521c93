/**
 * The rules around a webhook, for every caller (API, portal): the plan must include webhooks, the target must be
 * acceptable, the owning key must be the account's, a missing webhook and a replay of an event never sent are errors.
 */
import { sql } from "drizzle-orm";
import { assertActorMay } from "./permissions";
import { webhookPermission } from "../shared/roles";
import type { Database, Db } from "../db/client";
import type { ReplayBody, WebhookBody } from "../contract/webhooks";
import type { Actor } from "./audit";
import { DomainError } from "./errors";
import { listKeys } from "./keys";
import { currentPlan } from "./plans";
import { replayEvent, replayRange } from "./webhook-deliveries";
import { deploymentTargetPolicy, requireWebhookTarget, type TargetPolicy } from "./webhook-targets";
import { setWebhookStatus, type OwnerStatus } from "./webhook-status";
import { getWebhook, registerWebhook, type WebhookView } from "./webhooks";
import { planName } from "../shared/plan-name";

/** What the plan check reads from a plan (the account's, or the one an API key's calls are limited by). */
export interface WebhookPlan {
  webhooks: boolean;
  nameA: string;
  nameB: string;
  /** A test key's plan carries its account plan's names here (the plan the features come from). */
  features?: { nameA: string; nameB: string };
}

export interface WebhookOwner {
  accountId: string;
  keyId: string;
  env: "test" | "live";
}

/**
 * The one plan check: webhooks need Pro or Enterprise (API Pro or API Business). The API's answer names both families'
 * plan names; the portal's (`portal`) only the one name the portal uses for each plan.
 */
export function requireWebhookPlan(plan: WebhookPlan, { portal = false }: { portal?: boolean } = {}): void {
  if (!plan.webhooks)
    throw new DomainError(
      "subscription_required",
      portal
        ? `Webhooks need the Pro or Enterprise plan; the plan in force is ${planName(plan.features ?? plan)}.`
        : `Webhooks need the Pro (API Pro) or Enterprise (API Business) plan; the plan in force is ${planName(plan.features ?? plan)}.`,
    );
}

/** The plan check against the account's current plan (the portal acts for the account, not for one key). */
export async function requireAccountWebhookPlan(db: Db, accountId: string): Promise<void> {
  requireWebhookPlan(await currentPlan(db, accountId), { portal: true });
}

/** A domain answer of null means: no such webhook for this account. */
export function foundWebhook<T>(value: T | null): T {
  if (value === null) throw new DomainError("not_found", "No such webhook for this account.");
  return value;
}

/**
 * The account's webhook (404 when it is not theirs), once the member may manage webhooks of its environment: a live
 * key's webhook needs `live_webhooks`, a test key's `test_webhooks`. Portal routes that change a webhook call it first.
 */
export async function requireWebhookAccess(db: Db, accountId: string, id: string, actor: Actor): Promise<WebhookView> {
  const webhook = foundWebhook(await getWebhook(db, accountId, id));
  assertActorMay(actor, webhookPermission(webhook.environment));
  return webhook;
}

/** Registers for an API key: the key's plan, then the target, then the account's cap. */
export async function registerKeyWebhook(
  db: Db,
  caller: WebhookOwner & { plan: WebhookPlan },
  input: WebhookBody,
  actor: Actor,
  policy: TargetPolicy = deploymentTargetPolicy(),
): Promise<WebhookView & { signingSecret: string }> {
  requireWebhookPlan(caller.plan);
  await requireWebhookTarget(input.url, policy, "url", caller.env);
  return registerWebhook(db, { accountId: caller.accountId, keyId: caller.keyId, env: caller.env }, input, actor);
}

/**
 * Registers for an account from the portal: the webhook belongs to one of the account's active keys the user picks
 * (its environment decides demo or live events). Another account's key answers like a missing one.
 */
export async function registerAccountWebhook(
  db: Db,
  accountId: string,
  body: { keyId: string; webhook: WebhookBody },
  actor: Actor,
  policy: TargetPolicy = deploymentTargetPolicy(),
): Promise<WebhookView & { signingSecret: string }> {
  await requireAccountWebhookPlan(db, accountId);
  const key = (await listKeys(db, accountId)).find((k) => k.id === body.keyId && k.state === "active");
  if (!key) throw new DomainError("invalid", "Choose one of your active API keys.", { field: "keyId" });
  assertActorMay(actor, webhookPermission(key.env));
  await requireWebhookTarget(body.webhook.url, policy, "webhook.url", key.env);
  return registerWebhook(db, { accountId, keyId: key.id, env: key.env }, body.webhook, actor);
}

/** Replays one event or a time range; how many deliveries were queued. An event this webhook was never sent is refused. */
export async function replayWebhook(
  database: Database,
  accountId: string,
  webhookId: string,
  body: ReplayBody,
  actor: Actor,
  now = new Date(),
): Promise<{ queued: number }> {
  if ("eventId" in body) {
    const ok = foundWebhook(await replayEvent(database, accountId, webhookId, body.eventId, actor, now));
    if (!ok) throw new DomainError("invalid", "This webhook was never sent that event.", { field: "eventId" });
    return { queued: 1 };
  }
  const [from, to] = [new Date(body.from), new Date(body.to)];
  const range = await replayRange(database, accountId, webhookId, from, to, actor, now);
  return { queued: foundWebhook(range) };
}

/** Pauses or resumes from the portal: resuming needs the plan (pausing never does); answers the webhook as it now is. */
export async function setAccountWebhookStatus(
  database: Database,
  accountId: string,
  webhookId: string,
  status: OwnerStatus,
  actor: Actor,
): Promise<WebhookView> {
  if (status === "active") await requireAccountWebhookPlan(database.db, accountId);
  foundWebhook(await setWebhookStatus(database, accountId, webhookId, status, actor));
  return foundWebhook(await getWebhook(database.db, accountId, webhookId));
}

/** The limits a webhook's calls count against: its key's, as the API applies them (Sandbox for test keys). */
export interface WebhookKeyLimits {
  keyId: string;
  accountId: string;
  plan: { nameA: string; aPerMinute: number; aPerMonth: number; bPerMinute: number; bPerDay: number };
}

/** The key that registered the webhook and its plan's family B limits; null when the account has no such webhook. */
export async function webhookKeyLimits(db: Db, accountId: string, webhookId: string): Promise<WebhookKeyLimits | null> {
  const rows = await db.execute<{
    key_id: string;
    name_a: string;
    a_per_minute: number;
    a_per_month: number;
    b_per_minute: number;
    b_per_day: number;
  }>(sql`
    select w.key_id, p.name_a, p.a_per_minute, p.a_per_month, p.b_per_minute, p.b_per_day
    from webhooks w join api_keys k on k.id = w.key_id join accounts a on a.id = w.account_id
      join plans p on p.id = case when k.env = 'test' then 'sandbox' else a.plan_id end
    where w.id = ${webhookId} and w.account_id = ${accountId}::uuid and w.status <> 'deleted'`);
  const r = rows[0];
  if (!r) return null;
  return {
    keyId: r.key_id,
    accountId,
    plan: {
      nameA: r.name_a,
      aPerMinute: r.a_per_minute,
      aPerMonth: r.a_per_month,
      bPerMinute: r.b_per_minute,
      bPerDay: r.b_per_day,
    },
  };
}
