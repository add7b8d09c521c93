import { date, doublePrecision, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { marketEnv } from "./columns";

/** Option trade prints with the quote in force at the print (needed to infer the aggressor side). */
export const optionTrades = pgTable(
  "option_trades",
  {
    env: marketEnv("env").notNull(),
    tradeId: text("trade_id").notNull(),
    symbol: text("symbol").notNull(),
    ts: timestamp("ts", { withTimezone: true, mode: "date", precision: 3 }).notNull(),
    expiry: date("expiry", { mode: "string" }).notNull(),
    strike: doublePrecision("strike").notNull(),
    right: text("right", { enum: ["C", "P"] }).notNull(),
    price: doublePrecision("price").notNull(),
    size: integer("size").notNull(),
    exchange: text("exchange").notNull(),
    condition: text("condition").notNull(),
    bid: doublePrecision("bid").notNull(),
    ask: doublePrecision("ask").notNull(),
  },
  (t) => [primaryKey({ columns: [t.env, t.tradeId] }), index("option_trades_symbol_ts_idx").on(t.env, t.symbol, t.ts)],
);
