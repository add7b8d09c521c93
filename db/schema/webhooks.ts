import { index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, keyEnv, tstz } from "./columns";
import { accounts } from "./accounts";

/**
 * A webhook registration (family B, /api/v1/alerts). The signing secrets are stored sealed (AES-256-GCM under
 * AUTH_SECRET, lib/webhooks/secret-store.ts) and opened only to sign a delivery.
 */
export const webhooks = pgTable(
  "webhooks",
  {
    id: text("id").primaryKey(), // wh_<random>
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    keyId: text("key_id").notNull(),
    env: keyEnv("env").notNull(),
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    symbols: text("symbols").array().notNull(),
    params: jsonb("params").notNull(),
    status: text("status", { enum: ["active", "paused", "disabled", "deleted"] })
      .notNull()
      .default("active"),
    /** Sealed (v1.<iv>.<tag>.<ciphertext>), bound to the webhook id; never the whsec_ text itself. */
    signingSecret: text("signing_secret").notNull(),
    /**
     * The secret replaced by the last rotation (sealed); it keeps signing (a second signature) until
     * previousSecretExpiresAt.
     */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: tstz("previous_secret_expires_at"),
    /** Why the service disabled the endpoint (410, or failing for 5 days); null unless status is disabled. */
    disabledReason: text("disabled_reason"),
    /**
     * What disabled it when it was not the endpoint itself: key_revoked, key_expired, key_deactivated,
     * account_deactivated. Reactivating the key or the account restores exactly the webhooks it disabled.
     */
    disabledBy: text("disabled_by"),
    /** First failed attempt since the last success; 5 days of failure disables the endpoint. */
    failingSince: tstz("failing_since"),
    statusChangedAt: tstz("status_changed_at"),
    createdAt: createdAt(),
    deletedAt: tstz("deleted_at"),
  },
  (t) => [index("webhooks_account_idx").on(t.accountId), index("webhooks_env_status_idx").on(t.env, t.status)],
);
