import { bigserial, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { tstz } from "./columns";
import { apiKeys } from "./api-keys";

/**
 * The live stream's open streams, one row per stream, shared by every server process on the database (migration 0022,
 * docs/api-contract.md "Live stream"): a stream opens only if its key's live leases are below the plan's limit
 * (acquire_stream_lease, serialized per key), its process renews its leases every few seconds, closing deletes the row,
 * and a dead process's leases stop counting once `expires_at` passes (STREAM_LEASE_TTL_MS, 30 s).
 */
export const streamLeases = pgTable(
  "stream_leases",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    keyId: text("key_id")
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    accountId: uuid("account_id").notNull(),
    /** The server process holding the stream (lib/api/stream-leases.ts INSTANCE_ID). */
    instanceId: text("instance_id").notNull(),
    /** The opening call's request id (as in usage_events). */
    requestId: text("request_id").notNull(),
    openedAt: tstz("opened_at").notNull().defaultNow(),
    renewedAt: tstz("renewed_at").notNull().defaultNow(),
    expiresAt: tstz("expires_at").notNull(),
  },
  (t) => [
    index("stream_leases_key_idx").on(t.keyId, t.expiresAt),
    index("stream_leases_account_idx").on(t.accountId),
    index("stream_leases_instance_idx").on(t.instanceId),
  ],
);
