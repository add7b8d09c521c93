import { integer, jsonb, pgTable } from "drizzle-orm/pg-core";
import { keyEnv, tstz } from "./columns";

/**
 * Per key environment, the analytics the last processed data version showed (IV rank, day IV change, no-trade
 * decision per symbol): crossings are computed against it once per version, whichever process gets there first.
 */
export const webhookEventState = pgTable("webhook_event_state", {
  env: keyEnv("env").primaryKey(),
  dataVersion: integer("data_version").notNull(),
  symbols: jsonb("symbols").notNull(),
  updatedAt: tstz("updated_at").notNull().defaultNow(),
});
