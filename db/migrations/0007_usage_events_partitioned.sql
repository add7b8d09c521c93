-- usage_events becomes a table partitioned by UTC day on created_at (issue 9), keeping every row. Partitions are named
-- usage_events_pYYYYMMDD; usage_events_default catches rows outside them (clock skew) until maintenance moves them.
-- account_id and key_id lead the primary key so the table can be distributed by account (Citus) without a redesign.
ALTER TABLE "usage_events" RENAME TO "usage_events_unpartitioned";--> statement-breakpoint
ALTER INDEX "usage_events_key_time_idx" RENAME TO "usage_events_unpartitioned_key_time_idx";--> statement-breakpoint
ALTER INDEX "usage_events_account_time_idx" RENAME TO "usage_events_unpartitioned_account_time_idx";--> statement-breakpoint
ALTER INDEX "usage_events_request_idx" RENAME TO "usage_events_unpartitioned_request_idx";--> statement-breakpoint
ALTER TABLE "usage_events_unpartitioned" RENAME CONSTRAINT "usage_events_pkey" TO "usage_events_unpartitioned_pkey";--> statement-breakpoint
ALTER SEQUENCE "usage_events_id_seq" OWNED BY NONE;--> statement-breakpoint
CREATE TABLE "usage_events" (
	"id" bigint DEFAULT nextval('usage_events_id_seq') NOT NULL,
	"request_id" text NOT NULL,
	"key_id" text NOT NULL,
	"account_id" uuid NOT NULL,
	"endpoint_id" text NOT NULL,
	"status" integer NOT NULL,
	"error_code" text,
	"latency_ms" real NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_events_account_id_key_id_id_created_at_pk" PRIMARY KEY("account_id","key_id","id","created_at")
) PARTITION BY RANGE ("created_at");--> statement-breakpoint
ALTER SEQUENCE "usage_events_id_seq" OWNED BY "usage_events"."id";--> statement-breakpoint
CREATE INDEX "usage_events_key_time_idx" ON "usage_events" USING btree ("key_id","created_at");--> statement-breakpoint
CREATE INDEX "usage_events_account_time_idx" ON "usage_events" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "usage_events_request_idx" ON "usage_events" USING btree ("request_id");--> statement-breakpoint
CREATE TABLE "usage_events_default" PARTITION OF "usage_events" DEFAULT;--> statement-breakpoint
DO $$
DECLARE d date;
BEGIN
  -- One partition per UTC day from the oldest kept row through a week ahead (the app keeps creating them).
  FOR d IN
    SELECT generate_series(
      least(coalesce(min(created_at AT TIME ZONE 'UTC')::date, current_date), current_date),
      greatest(coalesce(max(created_at AT TIME ZONE 'UTC')::date, current_date), current_date + 7),
      interval '1 day')::date
    FROM "usage_events_unpartitioned"
  LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF "usage_events" FOR VALUES FROM (%L) TO (%L)',
      'usage_events_p' || to_char(d, 'YYYYMMDD'), d::text || ' 00:00:00+00', (d + 1)::text || ' 00:00:00+00');
  END LOOP;
END $$;--> statement-breakpoint
INSERT INTO "usage_events" SELECT * FROM "usage_events_unpartitioned";--> statement-breakpoint
DROP TABLE "usage_events_unpartitioned";
