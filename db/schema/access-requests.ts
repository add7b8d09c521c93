import { sql } from "drizzle-orm";
import { index, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";
import { accounts } from "./accounts";
import { apiKeys } from "./api-keys";
import { users } from "./users";

/**
 * Requests for an svc_sk_live_ key (the access-request flow): reviewed by an operator; the issued key waits encrypted
 * until the requester sees it once.
 */
export const accessRequests = pgTable(
  "access_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    company: text("company").notNull(),
    useCase: text("use_case").notNull(),
    expectedVolume: text("expected_volume").notNull(),
    status: text("status", { enum: ["pending", "approved", "rejected"] })
      .notNull()
      .default("pending"),
    decisionReason: text("decision_reason"),
    decidedAt: tstz("decided_at"),
    decidedBy: text("decided_by"),
    keyId: text("key_id").references(() => apiKeys.id),
    /** AES-256-GCM ciphertext of the issued key (lib/crypto/secret-box.ts); deleted once the requester has seen it. */
    keyCiphertext: text("key_ciphertext"),
    keyShownAt: tstz("key_shown_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("access_requests_account_idx").on(t.accountId, t.createdAt),
    uniqueIndex("access_requests_one_pending_idx").on(t.accountId).where(sql`status = 'pending'`),
  ],
);
