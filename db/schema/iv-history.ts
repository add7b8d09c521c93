import { date, doublePrecision, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { marketEnv, tstz } from "./columns";

/**
 * Derived cache: the 30-day constant-maturity ATM implied vol of each symbol's end-of-day snapshot, so processes do not
 * re-solve a year of chain history on every start. Rows are deleted when the data they derive from is rewritten.
 */
export const ivHistory = pgTable(
  "iv_history",
  {
    env: marketEnv("env").notNull(),
    symbol: text("symbol").notNull(),
    date: date("date", { mode: "string" }).notNull(),
    atmIv30: doublePrecision("atm_iv_30").notNull(),
    computedAt: tstz("computed_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.env, t.symbol, t.date] })],
);
