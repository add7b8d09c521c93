import { integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/** Fixed-window counters (per-minute burst, per-day / per-month quota), incremented atomically per call. */
export const usageCounters = pgTable(
  "usage_counters",
  {
    keyId: text("key_id").notNull(),
    bucket: text("bucket").notNull(), // A:minute | A:month | B:minute | B:day
    windowStart: timestamp("window_start", { withTimezone: true, mode: "string" }).notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.bucket, t.windowStart] })],
);
