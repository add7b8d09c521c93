import { date, doublePrecision, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { marketEnv } from "./columns";

/** Treasury par yields, percent, per date and tenor (1M … 30Y). */
export const treasuryYields = pgTable(
  "treasury_yields",
  {
    env: marketEnv("env").notNull(),
    date: date("date", { mode: "string" }).notNull(),
    tenor: text("tenor").notNull(),
    yieldPct: doublePrecision("yield_pct").notNull(),
  },
  (t) => [primaryKey({ columns: [t.env, t.date, t.tenor] })],
);
