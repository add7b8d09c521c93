import { pgTable, text } from "drizzle-orm/pg-core";

/** The metered API surface: one row per (method, route template). */
export const endpoints = pgTable("endpoints", {
  id: text("id").primaryKey(), // e.g. "GET /api/v1/options-flow"
  method: text("method").notNull(),
  path: text("path").notNull(),
  family: text("family", { enum: ["A", "B"] }).notNull(),
  summary: text("summary").notNull(),
});
