import { pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { plans } from "./plans";

/** A customer account: owns keys, webhooks and usage; its plan is the subscription of its live keys. */
export const accounts = pgTable("accounts", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  planId: text("plan_id")
    .notNull()
    .references(() => plans.id),
  status: text("status", { enum: ["active", "inactive"] })
    .notNull()
    .default("active"),
  createdAt: createdAt(),
});
