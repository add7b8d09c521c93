import { bigint, doublePrecision, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { marketEnv } from "./columns";

/** Underlying OHLCV bars; interval "1d" (daily, ts = session date 00:00 UTC) or "5m" (intraday). */
export const bars = pgTable(
  "bars",
  {
    env: marketEnv("env").notNull(),
    symbol: text("symbol").notNull(),
    interval: text("interval", { enum: ["1d", "5m"] }).notNull(),
    ts: timestamp("ts", { withTimezone: true, mode: "date" }).notNull(),
    open: doublePrecision("open").notNull(),
    high: doublePrecision("high").notNull(),
    low: doublePrecision("low").notNull(),
    close: doublePrecision("close").notNull(),
    volume: bigint("volume", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.env, t.symbol, t.interval, t.ts] })],
);
