import { bigserial, index, integer, pgTable, primaryKey, real, text, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/**
 * One row per metered call, written in the same transaction that enforces limits. Partitioned by UTC day on created_at
 * (migration usage_events_partitioned; partitions kept by lib/api/usage-partitions.ts): readers filter on created_at so
 * only the days they need are scanned. account_id and key_id lead every unique key, ready to distribute by account.
 * No index on request_id: no reader looks a call up by it alone, and its random values made every insert touch a random
 * leaf page (migration 0010). A support lookup of one request id names the account and day, scanning one partition.
 * `path` is the requested path and query as received, with secrets taken out and at most LOGGED_PATH_MAX characters
 * (lib/api/logged-path.ts; migration 0014); null on rows metered before it was kept.
 * `response_bytes` is the size of the answer's body in bytes (0 for HEAD); `burst_remaining`/`burst_limit` and
 * `quota_remaining`/`quota_limit` are the rate-limit state after the call, as its RateLimit headers said (migration 0020);
 * null on rows metered before, and the four limit columns null on calls answered without rate-limit headers.
 * `error_message` is the message of an error answer, secrets taken out, at most LOGGED_ERROR_MAX characters
 * (lib/api/logged-error.ts; migration 0028): with the code, the route's family, the key's environment and the time it
 * rebuilds the body the caller got; null on 2xx rows and on rows metered before.
 */
export const usageEvents = pgTable(
  "usage_events",
  {
    id: bigserial("id", { mode: "number" }).notNull(),
    requestId: text("request_id").notNull(),
    keyId: text("key_id").notNull(),
    accountId: uuid("account_id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    path: text("path"),
    status: integer("status").notNull(),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    latencyMs: real("latency_ms").notNull(),
    responseBytes: integer("response_bytes"),
    burstRemaining: integer("burst_remaining"),
    burstLimit: integer("burst_limit"),
    quotaRemaining: integer("quota_remaining"),
    quotaLimit: integer("quota_limit"),
    /** Calls this row stands for: 1, except a live stream's round of events for one stream (migration 0021). */
    units: integer("units").notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.keyId, t.id, t.createdAt] }),
    index("usage_events_key_time_idx").on(t.keyId, t.createdAt),
    index("usage_events_account_time_idx").on(t.accountId, t.createdAt),
  ],
);
