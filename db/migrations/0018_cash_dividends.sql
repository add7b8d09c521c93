CREATE TABLE "cash_dividends" (
	"env" "market_env" NOT NULL,
	"symbol" text NOT NULL,
	"ex_date" date NOT NULL,
	"amount" double precision NOT NULL,
	CONSTRAINT "cash_dividends_env_symbol_ex_date_pk" PRIMARY KEY("env","symbol","ex_date")
);
