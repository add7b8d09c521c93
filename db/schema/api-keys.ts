import { index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, keyEnv, tstz } from "./columns";
import { accounts } from "./accounts";

/** API keys. Only the SHA-256 digest of a key is stored; `prefix` is a short, non-secret display form. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(), // key_<random>
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    name: text("name").notNull(),
    env: keyEnv("env").notNull(),
    style: text("style", { enum: ["standard", "sk"] }).notNull(),
    prefix: text("prefix").notNull(),
    digest: text("digest").notNull().unique(), // hex SHA-256 of the whole key
    status: text("status", { enum: ["active", "inactive", "revoked"] })
      .notNull()
      .default("active"),
    createdAt: createdAt(),
    revokedAt: tstz("revoked_at"),
    /** Updated at most once a minute per key, off the request's critical round trip. */
    lastUsedAt: tstz("last_used_at"),
    /** Set when a key is rolled with an overlap: the key stops working at this time on every process. */
    expiresAt: tstz("expires_at"),
    /** Why the key was switched off by something other than its owner ("account_deactivated"): reactivation undoes exactly these. */
    disabledBy: text("disabled_by"),
  },
  (t) => [index("api_keys_account_idx").on(t.accountId)],
);
