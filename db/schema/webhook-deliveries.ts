import { index, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";
import { webhookEvents } from "./webhook-events";
import { webhooks } from "./webhooks";

/**
 * The durable outbox: one row per (event, webhook). Workers claim due rows with FOR UPDATE SKIP LOCKED and lease them
 * (next_attempt_at moves forward by the lease), so a killed worker's rows come due again and are retried.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id),
    accountId: uuid("account_id").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed", "cancelled"] })
      .notNull()
      .default("pending"),
    /** Attempts made in the current schedule (a replay starts a new schedule). */
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: tstz("next_attempt_at").notNull(),
    /** Changes at every claim; a worker whose lease expired cannot overwrite the next worker's result. */
    leaseToken: text("lease_token"),
    lastStatusCode: integer("last_status_code"),
    deliveredAt: tstz("delivered_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_webhook_idx").on(t.eventId, t.webhookId),
    index("webhook_deliveries_due_idx").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.createdAt),
  ],
);
