import { bigserial, doublePrecision, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, keyEnv, tstz } from "./columns";

/**
 * The live stream's stored events (GET /api/v1/stream, docs/api-contract.md "Live stream"), kept 48 h so a client
 * resumes after `Last-Event-ID`. `state` rows carry one symbol's analytics before and after a data version (each
 * stream derives its own threshold crossings from them); `flow.*` rows carry one options-flow event. The id orders them.
 */
export const streamEvents = pgTable(
  "stream_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    env: keyEnv("env").notNull(), // key environment that receives it (test = demo market)
    kind: text("kind").notNull(), // state | flow.sweep | flow.block | flow.unusual
    symbol: text("symbol").notNull(),
    dataVersion: integer("data_version"),
    premium: doublePrecision("premium"), // flow events' premium (USD)
    dedupeKey: text("dedupe_key").notNull(),
    payload: jsonb("payload").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("stream_events_dedupe_idx").on(t.dedupeKey),
    index("stream_events_env_id_idx").on(t.env, t.id),
    index("stream_events_created_idx").on(t.createdAt),
  ],
);

/** Per key environment, the per-symbol analytics of the last data version the stream producer processed. */
export const streamState = pgTable("stream_state", {
  env: keyEnv("env").primaryKey(),
  dataVersion: integer("data_version").notNull(),
  symbols: jsonb("symbols").notNull(),
  updatedAt: tstz("updated_at").notNull().defaultNow(),
});
