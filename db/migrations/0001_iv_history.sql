CREATE TABLE "iv_history" (
	"env" "market_env" NOT NULL,
	"symbol" text NOT NULL,
	"date" date NOT NULL,
	"atm_iv_30" double precision NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "iv_history_env_symbol_date_pk" PRIMARY KEY("env","symbol","date")
);
