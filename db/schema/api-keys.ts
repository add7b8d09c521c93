import { index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, keyEnv, tstz } from "./columns";
import { accounts } from "./accounts";

/** API keys. Only the SHA-256 digest of a key is stored; `prefix` is a short, non-secret display form. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(), // key_<random>
    accountId: uuid("account_id").notNull().references(() => accounts.id),
    name: text("name").notNull(),
    env: keyEnv("env").notNull(),
    style: text("style", { enum: ["standard", "sk"] }).notNull(),
    prefix: text("prefix").notNull(),
    digest: text("digest").notNull().unique(), // hex SHA-256 of the whole key
    status: text("status", { enum: ["active", "inactive", "revoked"] }).notNull().default("active"),
    createdAt: createdAt(),
    revokedAt: tstz("revoked_at"),
  },
  (t) => [index("api_keys_account_idx").on(t.accountId)],
);
