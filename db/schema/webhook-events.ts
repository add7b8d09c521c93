import { integer, jsonb, pgTable, text, uniqueIndex, index } from "drizzle-orm/pg-core";
import { createdAt, keyEnv } from "./columns";

/**
 * One event, computed once per data version (dedupe_key = env, version, type, symbol, threshold) and fanned out to
 * every matching webhook as a delivery. `webhook.test` events have a random dedupe key.
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: text("id").primaryKey(), // msg_<random>: the Standard Webhooks webhook-id, the same on every retry
    env: keyEnv("env").notNull(), // key environment whose webhooks receive it (test = demo market)
    type: text("type").notNull(),
    symbol: text("symbol"),
    threshold: text("threshold"), // the subscription parameter the event was computed for, as text ('' if none)
    dataVersion: integer("data_version"),
    dedupeKey: text("dedupe_key").notNull(),
    payload: jsonb("payload").notNull(), // {type, timestamp, data}, exactly the delivered body
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("webhook_events_dedupe_idx").on(t.dedupeKey),
    index("webhook_events_env_created_idx").on(t.env, t.createdAt),
  ],
);
