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
    /** When the next earnings are reported on their date; null: unknown (lib/analytics/event-move.ts). */
    earningsTiming: text("earnings_timing", { enum: ["before_open", "after_close"] }),
    dividendYield: doublePrecision("dividend_yield").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.env, t.symbol] })],
);

/**
 * An instrument's options exercise style where it is set explicitly; without a row it follows the kind (american
 * for equities and ETFs, european for indices). Kept beside instruments so that table's rows keep their shape.
 */
export const instrumentExerciseStyles = pgTable(
  "instrument_exercise_styles",
  {
    env: marketEnv("env").notNull(),
    symbol: text("symbol").notNull(),
    exerciseStyle: text("exercise_style", { enum: ["american", "european"] }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.env, t.symbol] })],
);

/** Discrete cash dividends per share by ex-date (`cli import dividends`, or the demo market's own schedule). */
export const cashDividends = pgTable(
  "cash_dividends",
  {
    env: marketEnv("env").notNull(),
    symbol: text("symbol").notNull(),
    exDate: date("ex_date", { mode: "string" }).notNull(),
    amount: doublePrecision("amount").notNull(),
  },
  (t) => [primaryKey({ columns: [t.env, t.symbol, t.exDate] })],
);
