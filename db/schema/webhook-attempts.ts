import { bigserial, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { tstz } from "./columns";
import { webhookDeliveries } from "./webhook-deliveries";

/** Every HTTP attempt of a delivery: when, the status code (null if no response), latency, first bytes of the answer. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id),
    attemptedAt: tstz("attempted_at").notNull(),
    statusCode: integer("status_code"),
    latencyMs: integer("latency_ms").notNull(),
    /** First bytes of the response body (at most 4 kB are read, 512 characters kept). */
    responseExcerpt: text("response_excerpt"),
    /** Why no 2xx: timeout, refused_address, connection_error, redirect, http_status. */
    error: text("error"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attemptedAt)],
);
