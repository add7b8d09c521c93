import { pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { accounts } from "./accounts";
import { apiKeys } from "./api-keys";

/** The test key the portal keeps for an account's playground; the key itself only sealed (lib/crypto/secret-box, purpose "playground-key"). */
export const playgroundKeys = pgTable("playground_keys", {
  accountId: uuid("account_id")
    .primaryKey()
    .references(() => accounts.id),
  keyId: text("key_id")
    .notNull()
    .references(() => apiKeys.id),
  sealedKey: text("sealed_key").notNull(),
  createdAt: createdAt(),
});
