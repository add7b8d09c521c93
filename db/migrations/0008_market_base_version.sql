ALTER TABLE "market_data_versions" ADD COLUMN "base_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Existing data counts as one base: the first delta load after the upgrade starts from a full read anyway.
UPDATE "market_data_versions" SET "base_version" = "version";
