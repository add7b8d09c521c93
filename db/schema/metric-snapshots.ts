import { date, doublePrecision, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { marketEnv, tstz } from "./columns";

/**
 * Daily snapshots of the published metrics: one row per environment, symbol and New York session day, computed from
 * the stored data as of that day's close (lib/engine/daily-snapshots.ts). Written at each session close, on every
 * import that changes a past day and, for the demo market, a year back at seed time; recomputing a day upserts it.
 * `inputs` holds what the four public answers of that day (ticker summary, signal score, AI summary, no-trade) are
 * built from: the instrument's name, the day's metrics and the market context; `as_of` answers are rebuilt from it.
 */
export const metricSnapshots = pgTable(
  "metric_snapshots",
  {
    env: marketEnv("env").notNull(),
    symbol: text("symbol").notNull(),
    date: date("date", { mode: "string" }).notNull(),
    asOf: tstz("as_of").notNull(),
    price: doublePrecision("price").notNull(),
    ivRank: doublePrecision("iv_rank"),
    ivPercentile: doublePrecision("iv_percentile"),
    atmIv30d: doublePrecision("atm_iv_30d"),
    skew25d: doublePrecision("skew_25d"),
    termSlope: doublePrecision("term_slope"),
    expectedMove: doublePrecision("expected_move"),
    expectedMovePct: doublePrecision("expected_move_pct"),
    serviceScore: integer("service_score").notNull(),
    /** Signal component sub-scores by component name. */
    components: jsonb("components").$type<Record<string, number>>().notNull(),
    sentiment: text("sentiment").notNull(),
    riskLevel: text("risk_level").notNull(),
    noTradeDecision: text("no_trade_decision").notNull(),
    failedChecks: text("failed_checks").array().notNull(),
    /** Flow totals of the day's prints; null when the store holds no prints of the symbol for that day. */
    callsPremium: doublePrecision("calls_premium"),
    putsPremium: doublePrecision("puts_premium"),
    sweepCount: integer("sweep_count"),
    blockCount: integer("block_count"),
    unusualCount: integer("unusual_count"),
    inputs: jsonb("inputs").$type<Record<string, unknown>>().notNull(),
    computedAt: tstz("computed_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.env, t.symbol, t.date] })],
);
