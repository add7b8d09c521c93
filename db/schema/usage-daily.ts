import { date, doublePrecision, index, integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";

/** Per key, per UTC day, per endpoint aggregates for the portal's usage pages; monthly = sum of days. */
export const usageDaily = pgTable(
  "usage_daily",
  {
    keyId: text("key_id").notNull(),
    accountId: uuid("account_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    endpointId: text("endpoint_id").notNull(),
    calls: integer("calls").notNull(),
    okCalls: integer("ok_calls").notNull(),
    clientErrors: integer("client_errors").notNull(),
    serverErrors: integer("server_errors").notNull(),
    latencyMsSum: doublePrecision("latency_ms_sum").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.keyId, t.day, t.endpointId] }),
    index("usage_daily_account_day_idx").on(t.accountId, t.day),
  ],
);
