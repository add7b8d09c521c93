import { bigserial, index, integer, pgTable, real, text, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/** One row per metered call, written in the same statement that enforces limits. */
export const usageEvents = pgTable(
  "usage_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    requestId: text("request_id").notNull(),
    keyId: text("key_id").notNull(),
    accountId: uuid("account_id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    status: integer("status").notNull(),
    errorCode: text("error_code"),
    latencyMs: real("latency_ms").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("usage_events_key_time_idx").on(t.keyId, t.createdAt),
    index("usage_events_account_time_idx").on(t.accountId, t.createdAt),
    index("usage_events_request_idx").on(t.requestId),
  ],
);
