/** Webhook registrations (Variant B /api/v1/alerts). Every query is scoped to the owning account. */
import { randomBytes } from "node:crypto";
import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { webhooks } from "../../db/schema";

export const WEBHOOK_EVENTS = ["iv_rank.crossed_above", "iv_rank.crossed_below", "no_trade.decision_changed"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const MAX_WEBHOOKS_PER_ACCOUNT = 20;

export interface WebhookInput {
  url: string;
  events: WebhookEvent[];
  symbols: string[];
  ivRankAbove?: number;
  ivRankBelow?: number;
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
  createdAt: string;
}

type Row = typeof webhooks.$inferSelect;

const toView = (r: Row): WebhookView => ({
  webhookId: r.id, status: r.status, url: r.url, events: r.events, symbols: r.symbols,
  params: r.params as Record<string, unknown>, environment: r.env, createdAt: r.createdAt.toISOString(),
});

export class WebhookLimitError extends Error {}

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
    if (n >= MAX_WEBHOOKS_PER_ACCOUNT) throw new WebhookLimitError(`An account may have at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks.`);
    const signingSecret = `whsec_${randomBytes(24).toString("base64")}`;
    const params: Record<string, unknown> = {};
    if (input.ivRankAbove !== undefined) params.ivRankAbove = input.ivRankAbove;
    if (input.ivRankBelow !== undefined) params.ivRankBelow = input.ivRankBelow;
    if (input.description !== undefined) params.description = input.description;
    const [row] = await tx
      .insert(webhooks)
      .values({
        id: `wh_${randomBytes(12).toString("hex")}`, accountId: owner.accountId, keyId: owner.keyId, env: owner.env,
        url: input.url, events: input.events, symbols: input.symbols, params, signingSecret,
      })
      .returning();
    return { ...toView(row), signingSecret };
  });
}

export async function listWebhooks(db: Db, accountId: string): Promise<WebhookView[]> {
  const rows = await db.select().from(webhooks)
    .where(and(eq(webhooks.accountId, accountId), ne(webhooks.status, "deleted")))
    .orderBy(asc(webhooks.createdAt), asc(webhooks.id));
  return rows.map(toView);
}

export async function getWebhook(db: Db, accountId: string, id: string): Promise<WebhookView | null> {
  const rows = await db.select().from(webhooks)
    .where(and(eq(webhooks.accountId, accountId), eq(webhooks.id, id), ne(webhooks.status, "deleted")));
  return rows[0] ? toView(rows[0]) : null;
}

export async function deleteWebhook(db: Db, accountId: string, id: string): Promise<WebhookView | null> {
  const rows = await db.update(webhooks).set({ status: "deleted", deletedAt: new Date() })
    .where(and(eq(webhooks.accountId, accountId), eq(webhooks.id, id), ne(webhooks.status, "deleted")))
    .returning();
  return rows[0] ? toView(rows[0]) : null;
}
