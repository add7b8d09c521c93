CREATE TABLE "metric_snapshots" (
	"env" "market_env" NOT NULL,
	"symbol" text NOT NULL,
	"date" date NOT NULL,
	"as_of" timestamp with time zone NOT NULL,
	"price" double precision NOT NULL,
	"iv_rank" double precision,
	"iv_percentile" double precision,
	"atm_iv_30d" double precision,
	"skew_25d" double precision,
	"term_slope" double precision,
	"expected_move" double precision,
	"expected_move_pct" double precision,
	"service_score" integer NOT NULL,
	"components" jsonb NOT NULL,
	"sentiment" text NOT NULL,
	"risk_level" text NOT NULL,
	"no_trade_decision" text NOT NULL,
	"failed_checks" text[] NOT NULL,
	"calls_premium" double precision,
	"puts_premium" double precision,
	"sweep_count" integer,
	"block_count" integer,
	"unusual_count" integer,
	"inputs" jsonb NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "metric_snapshots_env_symbol_date_pk" PRIMARY KEY("env","symbol","date")
);
--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "history_days" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
UPDATE "plans" SET "history_days" = CASE "id" WHEN 'starter' THEN 90 WHEN 'pro' THEN 400 WHEN 'enterprise' THEN 400 ELSE 30 END;
