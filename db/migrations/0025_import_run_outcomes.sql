-- Sync runs (docs/market-data.md) are recorded with the import runs: applied or failed, how long, from where, and why.
ALTER TABLE "import_runs" ADD COLUMN "status" text DEFAULT 'ok' NOT NULL;--> statement-breakpoint
ALTER TABLE "import_runs" ADD COLUMN "duration_ms" integer;--> statement-breakpoint
ALTER TABLE "import_runs" ADD COLUMN "source" text DEFAULT 'csv' NOT NULL;--> statement-breakpoint
ALTER TABLE "import_runs" ADD COLUMN "error" text;--> statement-breakpoint
CREATE INDEX "import_runs_kind_env_created_idx" ON "import_runs" USING btree ("kind","env","created_at");