import { index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, keyEnv, tstz } from "./columns";
import { accounts } from "./accounts";

/** A webhook registration (Variant B /api/v1/alerts). The signing secret is needed in clear to sign deliveries. */
export const webhooks = pgTable(
  "webhooks",
  {
    id: text("id").primaryKey(), // wh_<random>
    accountId: uuid("account_id").notNull().references(() => accounts.id),
    keyId: text("key_id").notNull(),
    env: keyEnv("env").notNull(),
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    symbols: text("symbols").array().notNull(),
    params: jsonb("params").notNull(),
    status: text("status", { enum: ["active", "paused", "disabled", "deleted"] }).notNull().default("active"),
    signingSecret: text("signing_secret").notNull(),
    createdAt: createdAt(),
    deletedAt: tstz("deleted_at"),
  },
  (t) => [index("webhooks_account_idx").on(t.accountId)],
);
