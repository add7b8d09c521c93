import { boolean, integer, pgTable, text } from "drizzle-orm/pg-core";

/**
 * The plan catalogue, seeded from lib/domain/plans-catalogue.ts; the gateway reads limits from here, never from
 * constants.
 */
export const plans = pgTable("plans", {
  id: text("id").primaryKey(), // sandbox | starter | pro | enterprise
  nameA: text("name_a").notNull(), // Sandbox, Starter, Pro, Enterprise (meta.plan)
  nameB: text("name_b").notNull(), // Free Sandbox, API Starter, API Pro, API Business
  rank: integer("rank").notNull(),
  aPerMinute: integer("a_per_minute").notNull(),
  aPerMonth: integer("a_per_month").notNull(),
  bPerMinute: integer("b_per_minute").notNull(),
  bPerDay: integer("b_per_day").notNull(),
  bMaxPayloadBytes: integer("b_max_payload_bytes").notNull(),
  webhooks: boolean("webhooks").notNull(),
  /** demo | delayed-15m | live: the freshest data a live key on this plan may see. */
  dataEntitlement: text("data_entitlement").notNull(),
  /** Which live key styles this plan admits: svc_live_ ("live") and svc_sk_live_ ("sk"). */
  liveKeyStyles: text("live_key_styles").array().notNull(),
  /** Most keys an account on this plan holds active at once (rolled keys on their way out not counted). */
  maxActiveKeys: integer("max_active_keys").notNull().default(10),
  /** How many calendar days back a key on this plan may read history and `as_of` (docs/api-contract.md §7). */
  historyDays: integer("history_days").notNull().default(30),
  /** How many live streams (GET /api/v1/stream) a key on this plan holds open at once, across every server process. */
  streamsPerKey: integer("streams_per_key").notNull().default(2),
});
