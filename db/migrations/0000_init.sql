CREATE TYPE "public"."key_env" AS ENUM('test', 'live');--> statement-breakpoint
CREATE TYPE "public"."market_env" AS ENUM('demo', 'live');--> statement-breakpoint
CREATE TABLE "plans" (
	"id" text PRIMARY KEY NOT NULL,
	"name_a" text NOT NULL,
	"name_b" text NOT NULL,
	"rank" integer NOT NULL,
	"a_per_minute" integer NOT NULL,
	"a_per_month" integer NOT NULL,
	"b_per_minute" integer NOT NULL,
	"b_per_day" integer NOT NULL,
	"b_max_payload_bytes" integer NOT NULL,
	"webhooks" boolean NOT NULL,
	"data_entitlement" text NOT NULL,
	"live_key_styles" text[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"plan_id" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"account_id" uuid NOT NULL,
	"role" text DEFAULT 'owner' NOT NULL,
	"is_admin" boolean DEFAULT false NOT NULL,
	"password_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"env" "key_env" NOT NULL,
	"style" text NOT NULL,
	"prefix" text NOT NULL,
	"digest" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_digest_unique" UNIQUE("digest")
);
--> statement-breakpoint
CREATE TABLE "endpoints" (
	"id" text PRIMARY KEY NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"family" text NOT NULL,
	"summary" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "endpoint_licensing" (
	"endpoint_id" text NOT NULL,
	"env" "key_env" NOT NULL,
	"state" text NOT NULL,
	"reason" text NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "endpoint_licensing_endpoint_id_env_pk" PRIMARY KEY("endpoint_id","env")
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"subject" text NOT NULL,
	"details" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_counters" (
	"key_id" text NOT NULL,
	"bucket" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "usage_counters_key_id_bucket_window_start_pk" PRIMARY KEY("key_id","bucket","window_start")
);
--> statement-breakpoint
CREATE TABLE "usage_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"request_id" text NOT NULL,
	"key_id" text NOT NULL,
	"account_id" uuid NOT NULL,
	"endpoint_id" text NOT NULL,
	"status" integer NOT NULL,
	"error_code" text,
	"latency_ms" real NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_daily" (
	"key_id" text NOT NULL,
	"account_id" uuid NOT NULL,
	"day" date NOT NULL,
	"endpoint_id" text NOT NULL,
	"calls" integer NOT NULL,
	"ok_calls" integer NOT NULL,
	"client_errors" integer NOT NULL,
	"server_errors" integer NOT NULL,
	"latency_ms_sum" double precision NOT NULL,
	CONSTRAINT "usage_daily_key_id_day_endpoint_id_pk" PRIMARY KEY("key_id","day","endpoint_id")
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"key_id" text NOT NULL,
	"env" "key_env" NOT NULL,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"symbols" text[] NOT NULL,
	"params" jsonb NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"signing_secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "instruments" (
	"env" "market_env" NOT NULL,
	"symbol" text NOT NULL,
	"name" text NOT NULL,
	"sector" text NOT NULL,
	"kind" text NOT NULL,
	"next_earnings_date" date,
	"dividend_yield" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "instruments_env_symbol_pk" PRIMARY KEY("env","symbol")
);
--> statement-breakpoint
CREATE TABLE "bars" (
	"env" "market_env" NOT NULL,
	"symbol" text NOT NULL,
	"interval" text NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"open" double precision NOT NULL,
	"high" double precision NOT NULL,
	"low" double precision NOT NULL,
	"close" double precision NOT NULL,
	"volume" bigint NOT NULL,
	CONSTRAINT "bars_env_symbol_interval_ts_pk" PRIMARY KEY("env","symbol","interval","ts")
);
--> statement-breakpoint
CREATE TABLE "option_quotes" (
	"env" "market_env" NOT NULL,
	"symbol" text NOT NULL,
	"as_of" timestamp with time zone NOT NULL,
	"expiry" date NOT NULL,
	"strike" double precision NOT NULL,
	"right" text NOT NULL,
	"bid" double precision NOT NULL,
	"ask" double precision NOT NULL,
	"last" double precision,
	"volume" bigint NOT NULL,
	"open_interest" bigint NOT NULL,
	CONSTRAINT "option_quotes_env_symbol_as_of_expiry_strike_right_pk" PRIMARY KEY("env","symbol","as_of","expiry","strike","right")
);
--> statement-breakpoint
CREATE TABLE "option_trades" (
	"env" "market_env" NOT NULL,
	"trade_id" text NOT NULL,
	"symbol" text NOT NULL,
	"ts" timestamp (3) with time zone NOT NULL,
	"expiry" date NOT NULL,
	"strike" double precision NOT NULL,
	"right" text NOT NULL,
	"price" double precision NOT NULL,
	"size" integer NOT NULL,
	"exchange" text NOT NULL,
	"condition" text NOT NULL,
	"bid" double precision NOT NULL,
	"ask" double precision NOT NULL,
	CONSTRAINT "option_trades_env_trade_id_pk" PRIMARY KEY("env","trade_id")
);
--> statement-breakpoint
CREATE TABLE "treasury_yields" (
	"env" "market_env" NOT NULL,
	"date" date NOT NULL,
	"tenor" text NOT NULL,
	"yield_pct" double precision NOT NULL,
	CONSTRAINT "treasury_yields_env_date_tenor_pk" PRIMARY KEY("env","date","tenor")
);
--> statement-breakpoint
CREATE TABLE "market_data_versions" (
	"env" "market_env" PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"env" "market_env" NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"sha256" text NOT NULL,
	"rows" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "endpoint_licensing" ADD CONSTRAINT "endpoint_licensing_endpoint_id_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."endpoints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_account_idx" ON "users" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "api_keys_account_idx" ON "api_keys" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "audit_log_subject_idx" ON "audit_log" USING btree ("subject","created_at");--> statement-breakpoint
CREATE INDEX "usage_events_key_time_idx" ON "usage_events" USING btree ("key_id","created_at");--> statement-breakpoint
CREATE INDEX "usage_events_account_time_idx" ON "usage_events" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "usage_events_request_idx" ON "usage_events" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "usage_daily_account_day_idx" ON "usage_daily" USING btree ("account_id","day");--> statement-breakpoint
CREATE INDEX "webhooks_account_idx" ON "webhooks" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "option_quotes_latest_idx" ON "option_quotes" USING btree ("env","symbol","as_of");--> statement-breakpoint
CREATE INDEX "option_trades_symbol_ts_idx" ON "option_trades" USING btree ("env","symbol","ts");