import { bigserial, integer, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, marketEnv } from "./columns";

/** One row per successful import file, for operators' audit. */
export const importRuns = pgTable("import_runs", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  env: marketEnv("env").notNull(),
  kind: text("kind").notNull(),
  fileName: text("file_name").notNull(),
  sha256: text("sha256").notNull(),
  rows: integer("rows").notNull(),
  createdAt: createdAt(),
});
