import { bigserial, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, marketEnv } from "./columns";

/**
 * One row per import: every CSV file written, and every market-data sync run (docs/market-data.md), applied or failed.
 * A failed run wrote nothing but this row: `status` 'failed' with its `error`.
 */
export const importRuns = pgTable(
  "import_runs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    env: marketEnv("env").notNull(),
    kind: text("kind").notNull(),
    fileName: text("file_name").notNull(),
    sha256: text("sha256").notNull(),
    rows: integer("rows").notNull(),
    /** 'ok' (applied) or 'failed' (nothing written). */
    status: text("status").notNull().default("ok"),
    /** Wall time of the run, fetch and write (sync runs; null for CSV imports). */
    durationMs: integer("duration_ms"),
    /** Where the rows came from: 'csv', 'massive', … */
    source: text("source").notNull().default("csv"),
    /** Why a failed run failed, or what a run skipped (never a secret). */
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [index("import_runs_kind_env_created_idx").on(t.kind, t.env, t.createdAt)],
);
