/** Family B analytics routes (docs/api-contract.md §1): the flat envelope with isMockData, timestamp, dataLabel. */
import { z } from "zod";
import { IDEMPOTENCY_ERRORS, invalid, KEYED_ROUTE_ERRORS } from "../errors";
import { defineRoute } from "../route";
import { symbolSchema, tickerParams } from "./inputs";
import { schemas } from "../../contract/responses";
import { asOfAnswer } from "./history";
import { asOfQuery } from "./history-inputs";
import { strategyRequestSchema } from "../../analytics/strategy-schema";

/** Routes that read one or more named symbols also answer an unknown symbol. */
const SYMBOL_ERRORS = [...KEYED_ROUTE_ERRORS, "symbol_not_found"] as const;
/** Routes with `as_of` also answer a day without a snapshot. */
const AS_OF_ERRORS = [...SYMBOL_ERRORS, "not_found"] as const;

export const aiSummary = defineRoute({
  operationId: "getSymbolSummary",
  method: "GET",
  path: "/api/v1/ai/symbol/{ticker}/summary",
  family: "B",
  envelope: "B",
  errors: AS_OF_ERRORS,
  tags: ["Research"],
  summary: "AI research summary for a symbol",
  description: "A deterministic research summary generated from the symbol's numbers, with confidence (0–1) and bias.",
  authenticated: true,
  params: tickerParams,
  query: asOfQuery,
  response: schemas.aiSummary,
  handler: (ctx) =>
    ctx.query.as_of
      ? asOfAnswer(ctx, ctx.params.ticker, ctx.query.as_of).then((d) => ({
          data: d.answers.aiSummary,
          asOf: d.snapshot.asOf,
        }))
      : ctx.engine.aiSummary(ctx.view, ctx.params.ticker),
});

export const noTrade = defineRoute({
  operationId: "getNoTrade",
  method: "GET",
  path: "/api/v1/ai/symbol/{ticker}/no-trade",
  family: "B",
  envelope: "B",
  errors: AS_OF_ERRORS,
  tags: ["Research"],
  summary: "No-trade analysis across 8 risk categories",
  description:
    "Checks in eight named risk categories, each pass/warn/fail against documented thresholds, and a decision.",
  authenticated: true,
  params: tickerParams,
  query: asOfQuery,
  response: schemas.noTrade,
  handler: (ctx) =>
    ctx.query.as_of
      ? asOfAnswer(ctx, ctx.params.ticker, ctx.query.as_of).then((d) => ({
          data: d.answers.noTrade,
          asOf: d.snapshot.asOf,
        }))
      : ctx.engine.noTrade(ctx.view, ctx.params.ticker),
});

export const yieldCurve = defineRoute({
  operationId: "getYieldCurve",
  method: "GET",
  path: "/api/v1/data/yield-curve",
  family: "B",
  envelope: "B",
  errors: KEYED_ROUTE_ERRORS,
  tags: ["Market analytics"],
  summary: "Treasury yield curve",
  description: "The newest par yield curve, every tenor, inversion flags and the 10y–2y spread in basis points.",
  authenticated: true,
  response: schemas.yieldCurve,
  handler: ({ engine, view }) => engine.yieldCurve(view),
});

export const marketSentiment = defineRoute({
  operationId: "getMarketSentiment",
  method: "GET",
  path: "/api/v1/data/market-sentiment",
  family: "B",
  envelope: "B",
  errors: KEYED_ROUTE_ERRORS,
  tags: ["Market analytics"],
  summary: "Composite market sentiment",
  description: "A 0–100 score and label from put/call, volatility index vs its average, breadth, momentum and skew.",
  authenticated: true,
  response: schemas.marketSentiment,
  handler: ({ engine, view }) => engine.marketSentiment(view),
});

const MAX_WATCHLIST = 50;
export const watchlistQuery = z
  .object({
    symbols: z
      .string()
      .min(1)
      .max(MAX_WATCHLIST * 10)
      .describe(`Comma-separated symbols, 1–${MAX_WATCHLIST}.`)
      .transform((s, ctx) => {
        const parts = s
          .split(",")
          .map((p) => p.trim())
          .filter((p) => p !== "");
        const out: string[] = [];
        for (const p of parts) {
          const r = symbolSchema.safeParse(p);
          if (!r.success) {
            ctx.addIssue({ code: "custom", message: `'${p.slice(0, 16)}' is not a ticker symbol` });
            return z.NEVER;
          }
          if (!out.includes(r.data)) out.push(r.data);
        }
        if (out.length === 0) ctx.addIssue({ code: "custom", message: "give at least one symbol" });
        if (out.length > MAX_WATCHLIST) ctx.addIssue({ code: "custom", message: `at most ${MAX_WATCHLIST} symbols` });
        return out;
      }),
  })
  .strict();

export const watchlistRanking = defineRoute({
  operationId: "getWatchlistRanking",
  method: "GET",
  path: "/api/v1/data/watchlist-ranking",
  family: "B",
  envelope: "B",
  errors: SYMBOL_ERRORS,
  tags: ["Market analytics"],
  summary: "Watchlist ranked by IV rank and liquidity",
  description:
    "Ranks the given symbols by 0.6 × IV rank + 0.4 × liquidity score, with each symbol's no-trade decision. A " +
    "partial batch is answered: symbols the service cannot rank are listed in `unknown` with a reason, " +
    "and the others are ranked; only when none can be ranked does the call fail (404 symbol_not_found, or 503 " +
    "data_source_unavailable).",
  authenticated: true,
  query: watchlistQuery,
  response: schemas.watchlistRanking,
  handler: ({ engine, view, query }) => {
    if (!query.symbols) throw invalid("query field 'symbols' is required.");
    return engine.watchlistRanking(view, query.symbols);
  },
});

export const researchOutputs = defineRoute({
  operationId: "createOutput",
  method: "POST",
  path: "/api/v1/outputs",
  family: "B",
  envelope: "B",
  errors: [...SYMBOL_ERRORS, ...IDEMPOTENCY_ERRORS, "payload_too_large"],
  tags: ["Research"],
  summary: "Structured research output for a strategy",
  description:
    "Prices a strategy's legs from the current chain and returns payoff, greeks, probability of profit and risk flags.",
  authenticated: true,
  body: strategyRequestSchema,
  response: schemas.researchOutput,
  handler: ({ engine, view, body }) => engine.researchOutput(view, body),
});

export const familyBRoutes = [aiSummary, noTrade, yieldCurve, marketSentiment, watchlistRanking, researchOutputs];
