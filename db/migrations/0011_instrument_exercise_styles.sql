CREATE TABLE "instrument_exercise_styles" (
	"env" "market_env" NOT NULL,
	"symbol" text NOT NULL,
	"exercise_style" text NOT NULL,
	CONSTRAINT "instrument_exercise_styles_env_symbol_pk" PRIMARY KEY("env","symbol")
);
