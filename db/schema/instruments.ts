import { date, doublePrecision, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { marketEnv } from "./columns";

/** Instruments per market environment: equities, an index and a volatility index. */
export const instruments = pgTable(
  "instruments",
  {
    env: marketEnv("env").notNull(),
    symbol: text("symbol").notNull(),
    name: text("name").notNull(),
    sector: text("sector").notNull(),
    kind: text("kind", { enum: ["equity", "etf", "index", "volatility_index"] }).notNull(),
    nextEarningsDate: date("next_earnings_date", { mode: "string" }),
    dividendYield: doublePrecision("dividend_yield").notNull().default(0),
    /** null: by kind (american for equities and ETFs, european for indices). */
    exerciseStyle: text("exercise_style", { enum: ["american", "european"] }),
  },
  (t) => [primaryKey({ columns: [t.env, t.symbol] })],
);
