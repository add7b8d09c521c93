CREATE TABLE "stream_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"env" "key_env" NOT NULL,
	"kind" text NOT NULL,
	"symbol" text NOT NULL,
	"data_version" integer,
	"premium" double precision,
	"dedupe_key" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stream_state" (
	"env" "key_env" PRIMARY KEY NOT NULL,
	"data_version" integer NOT NULL,
	"symbols" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "stream_events_dedupe_idx" ON "stream_events" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "stream_events_env_id_idx" ON "stream_events" USING btree ("env","id");--> statement-breakpoint
CREATE INDEX "stream_events_created_idx" ON "stream_events" USING btree ("created_at");