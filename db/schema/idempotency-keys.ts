import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

/**
 * Idempotency-Key claims of POST and PATCH calls on /api/v1 (docs/api-contract.md "Idempotent requests"): one row per
 * (account, key), claimed in_progress before the handler runs and completed with the answer to replay for 24 hours.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** sha256 of method, path and body: a retry must send the same request. */
    requestDigest: text("request_digest").notNull(),
    state: text("state", { enum: ["in_progress", "completed"] }).notNull(),
    responseStatus: integer("response_status"),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>(),
    responseBody: text("response_body"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "string" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] }), index("idempotency_keys_created_at_idx").on(t.createdAt)],
);
