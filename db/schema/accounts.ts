import { pgTable, text, uuid } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { createdAt } from "./columns";
import { plans } from "./plans";

/**
 * A customer account: owns keys, webhooks and usage; its plan is the subscription of its live keys. `inactive`: an
 * operator deactivated it (reversible); `deleted`: its Owner deleted it (final; rows kept, lib/domain/account-deletion.ts).
 */
export const accounts = pgTable("accounts", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  planId: text("plan_id")
    .notNull()
    .references(() => plans.id),
  status: text("status", { enum: ["active", "inactive", "deleted"] })
    .notNull()
    .default("active"),
  /** Browser origins (scheme://host[:port]) whose pages may call the API with this account's keys (CORS). */
  allowedOrigins: text("allowed_origins").array().notNull().default(sql`'{}'::text[]`),
  createdAt: createdAt(),
});
