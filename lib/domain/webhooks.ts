/** Webhook registrations (the API's /api/v1/alerts and the portal's webhooks). Every query is scoped to the owning account. */
import "server-only";
import { randomBytes } from "node:crypto";
import { newSigningSecret } from "../webhooks/signing";
import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { webhookDeliveries, webhooks } from "../../db/schema";
import { MAX_WEBHOOKS_PER_ACCOUNT, type WebhookEvent } from "../contract/webhooks";
import { DomainError } from "./errors";

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
  /** Why the service disabled it (410, or 5 days of failures); null otherwise. */
  disabledReason: string | null;
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
  createdAt: r.createdAt.toISOString(),
});

/** Stores a registration as given (callers check the plan and the target first: see webhook-registration.ts). */
export async function registerWebhook(
  db: Db,
  owner: { accountId: string; keyId: string; env: "test" | "live" },
  input: WebhookInput,
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
    const [row] = await tx
      .insert(webhooks)
      .values({
        id: `wh_${randomBytes(12).toString("hex")}`,
        accountId: owner.accountId,
        keyId: owner.keyId,
        env: owner.env,
        url: input.url,
        events: input.events,
        symbols: input.symbols,
        params,
        signingSecret,
      })
      .returning();
    return { ...toView(row), signingSecret };
  });
}

export async function listWebhooks(db: Db, accountId: string): Promise<WebhookView[]> {
  const rows = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.accountId, accountId), ne(webhooks.status, "deleted")))
    .orderBy(asc(webhooks.createdAt), asc(webhooks.id));
  return rows.map(toView);
}

export async function getWebhook(db: Db, accountId: string, id: string): Promise<WebhookView | null> {
  const rows = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.accountId, accountId), eq(webhooks.id, id), ne(webhooks.status, "deleted")));
  return rows[0] ? toView(rows[0]) : null;
}

/** Deletes (terminal) and cancels the deliveries still queued for it. */
export async function deleteWebhook(db: Db, accountId: string, id: string): Promise<WebhookView | null> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(webhooks)
      .set({ status: "deleted", deletedAt: new Date(), statusChangedAt: new Date() })
      .where(and(eq(webhooks.accountId, accountId), eq(webhooks.id, id), ne(webhooks.status, "deleted")))
      .returning();
    if (!rows[0]) return null;
    await tx
      .update(webhookDeliveries)
      .set({ status: "cancelled", leaseToken: null })
      .where(and(eq(webhookDeliveries.webhookId, id), eq(webhookDeliveries.status, "pending")));
    return toView(rows[0]);
  });
}
