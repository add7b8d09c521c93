import { bigint, date, doublePrecision, index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { marketEnv } from "./columns";

/** Option-chain snapshots: one row per contract per as-of time. */
export const optionQuotes = pgTable(
  "option_quotes",
  {
    env: marketEnv("env").notNull(),
    symbol: text("symbol").notNull(),
    asOf: timestamp("as_of", { withTimezone: true, mode: "date" }).notNull(),
    expiry: date("expiry", { mode: "string" }).notNull(),
    strike: doublePrecision("strike").notNull(),
    right: text("right", { enum: ["C", "P"] }).notNull(),
    bid: doublePrecision("bid").notNull(),
    ask: doublePrecision("ask").notNull(),
    last: doublePrecision("last"),
    volume: bigint("volume", { mode: "number" }).notNull(),
    openInterest: bigint("open_interest", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.env, t.symbol, t.asOf, t.expiry, t.strike, t.right] }),
    index("option_quotes_latest_idx").on(t.env, t.symbol, t.asOf),
  ],
);
