/** Webhook registrations (the API's /api/v1/alerts and the portal's webhooks). Every query is scoped to the owning account. */
import "server-only";
import { randomBytes } from "node:crypto";
import { newSigningSecret } from "../webhooks/signing";
import { sealSigningSecret } from "../webhooks/secret-store";
import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { webhookDeliveries, webhooks } from "../../db/schema";
import { MAX_WEBHOOKS_PER_ACCOUNT, type WebhookEvent } from "../contract/webhooks";
import { recordAudit, type Actor } from "./audit";
import { DomainError } from "./errors";
import { disableExpiredKeyWebhooks, type DisabledBy } from "./webhook-lifecycle";

export { MAX_WEBHOOKS_PER_ACCOUNT, WEBHOOK_EVENTS, type WebhookEvent } from "../contract/webhooks";

export interface WebhookInput {
  url: string;
  events: WebhookEvent[];
  symbols: string[];
  ivRankAbove?: number;
  ivRankBelow?: number;
  ivChangeAbove?: number;
  description?: string;
}

export interface WebhookView {
  webhookId: string;
  status: "active" | "paused" | "disabled" | "deleted";
  url: string;
  events: string[];
  symbols: string[];
  params: Record<string, unknown>;
  environment: "test" | "live";
  /** Why it is disabled (410, 5 days of failures, its key revoked, expired or deactivated, the account deactivated). */
  disabledReason: string | null;
  /** What disabled it when not the endpoint (webhook-lifecycle.ts); the portal's page only, the API says it in words. */
  disabledBy: DisabledBy | null;
  createdAt: string;
}

type Row = typeof webhooks.$inferSelect;

export const toView = (r: Row): WebhookView => ({
  webhookId: r.id,
  status: r.status,
  url: r.url,
  events: r.events,
  symbols: r.symbols,
  params: r.params as Record<string, unknown>,
  environment: r.env,
  disabledReason: r.status === "disabled" ? r.disabledReason : null,
  disabledBy: r.status === "disabled" ? (r.disabledBy as DisabledBy | null) : null,
  createdAt: r.createdAt.toISOString(),
});

/** The URL as the audit log keeps it: without query or fragment, which may carry the receiver's own token. */
export const auditedUrl = (raw: string) => {
  const u = new URL(raw);
  return `${u.origin}${u.pathname}`;
};

/**
 * Stores a registration as given (callers check the plan and the target first: see webhook-registration.ts). The
 * secret is answered once in clear and stored sealed.
 */
export async function registerWebhook(
  db: Db,
  owner: { accountId: string; keyId: string; env: "test" | "live" },
  input: WebhookInput,
  actor: Actor,
): Promise<WebhookView & { signingSecret: string }> {
  return db.transaction(async (tx) => {
    // Serialise registrations per account so the cap holds under concurrency.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${owner.accountId}))`);
    const [{ n }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(webhooks)
      .where(and(eq(webhooks.accountId, owner.accountId), ne(webhooks.status, "deleted")));
    if (n >= MAX_WEBHOOKS_PER_ACCOUNT)
      throw new DomainError("invalid", `An account may have at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks.`);
    const signingSecret = newSigningSecret();
    const params: Record<string, unknown> = {};
    if (input.ivRankAbove !== undefined) params.ivRankAbove = input.ivRankAbove;
    if (input.ivRankBelow !== undefined) params.ivRankBelow = input.ivRankBelow;
    if (input.ivChangeAbove !== undefined) params.ivChangeAbove = input.ivChangeAbove;
    if (input.description !== undefined) params.description = input.description;
    const id = `wh_${randomBytes(12).toString("hex")}`;
    const [row] = await tx
      .insert(webhooks)
      .values({
        id,
        accountId: owner.accountId,
        keyId: owner.keyId,
        env: owner.env,
        url: input.url,
        events: input.events,
        symbols: input.symbols,
        params,
        signingSecret: sealSigningSecret(signingSecret, id),
      })
      .returning();
    await recordAudit(tx, {
      actor,
      accountId: owner.accountId,
      action: "webhook.register",
      target: `webhook:${id}`,
      after: {
        url: auditedUrl(input.url),
        events: input.events,
        symbols: input.symbols,
        params,
        keyId: owner.keyId,
        env: owner.env,
      },
    });
    return { ...toView(row), signingSecret };
  });
}

/** Every webhook of the account but deleted ones (those of keys that expired since the last look shown disabled). */
export async function listWebhooks(db: Db, accountId: string, now = new Date()): Promise<WebhookView[]> {
  await disableExpiredKeyWebhooks(db, now, accountId);
  const rows = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.accountId, accountId), ne(webhooks.status, "deleted")))
    .orderBy(asc(webhooks.createdAt), asc(webhooks.id));
  return rows.map(toView);
}

export async function getWebhook(db: Db, accountId: string, id: string, now = new Date()): Promise<WebhookView | null> {
  await disableExpiredKeyWebhooks(db, now, accountId);
  const rows = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.accountId, accountId), eq(webhooks.id, id), ne(webhooks.status, "deleted")));
  return rows[0] ? toView(rows[0]) : null;
}

/** Deletes (terminal) and cancels the deliveries still queued for it. */
export async function deleteWebhook(db: Db, accountId: string, id: string, actor: Actor): Promise<WebhookView | null> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ status: webhooks.status })
      .from(webhooks)
      .where(and(eq(webhooks.accountId, accountId), eq(webhooks.id, id), ne(webhooks.status, "deleted")))
      .for("update");
    if (!before) return null;
    const rows = await tx
      .update(webhooks)
      .set({ status: "deleted", deletedAt: new Date(), statusChangedAt: new Date() })
      .where(eq(webhooks.id, id))
      .returning();
    await recordAudit(tx, {
      actor,
      accountId,
      action: "webhook.delete",
      target: `webhook:${id}`,
      before: { status: before.status },
      after: { status: "deleted" },
    });
    await tx
      .update(webhookDeliveries)
      .set({ status: "cancelled", leaseToken: null })
      .where(and(eq(webhookDeliveries.webhookId, id), eq(webhookDeliveries.status, "pending")));
    return toView(rows[0]);
  });
}
