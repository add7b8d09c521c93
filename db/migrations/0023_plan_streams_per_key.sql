-- The live stream's per-key limit becomes plan data, like every other limit (CONTRACT §3: the catalogue is data in the
-- database, not constants in code). Values are the documented seed: Sandbox 2, Starter 2, Pro 10, Enterprise 100.
ALTER TABLE "plans" ADD COLUMN "streams_per_key" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
UPDATE "plans" SET "streams_per_key" = CASE "id" WHEN 'pro' THEN 10 WHEN 'enterprise' THEN 100 ELSE 2 END;
