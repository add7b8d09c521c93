/** Family A routes (docs/api-contract.md §1): the `meta` envelope and bare `{"error":{…}}` bodies. */
import { z } from "zod";
import { KEYED_ROUTE_ERRORS } from "../errors";
import { defineRoute } from "../route";
import { caseInsensitiveEnum, isoDateTimeString, nonNegativeIntString, symbolParams, symbolSchema } from "./inputs";
import { schemas } from "../../contract/responses";
import { asOfAnswer } from "./history";
import { asOfQuery } from "./history-inputs";

/** A calendar date YYYY-MM-DD (flow expiry filters). */
const isoDateString = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, { message: "must be a date YYYY-MM-DD" });

/** What family A's symbol routes answer: the keyed route's codes and an unknown symbol. */
const SYMBOL_ERRORS = [...KEYED_ROUTE_ERRORS, "symbol_not_found"] as const;
/** Routes with `as_of` also answer a day without a snapshot. */
const AS_OF_ERRORS = [...SYMBOL_ERRORS, "not_found"] as const;

export const tickerSummary = defineRoute({
  operationId: "getTickerSummary",
  method: "GET",
  path: "/api/v1/ticker/{symbol}/summary",
  family: "A",
  envelope: "A",
  errors: AS_OF_ERRORS,
  tags: ["Market analytics"],
  summary: "Research summary for a ticker",
  description:
    "Price, service_score (0–100), sentiment, risk_level and a generated summary, from the service's own analytics.",
  authenticated: true,
  params: symbolParams,
  query: asOfQuery,
  response: schemas.tickerSummary,
  handler: (ctx) =>
    ctx.query.as_of
      ? asOfAnswer(ctx, ctx.params.symbol, ctx.query.as_of).then((d) => ({
          data: d.answers.tickerSummary,
          asOf: d.snapshot.asOf,
        }))
      : ctx.engine.tickerSummary(ctx.view, ctx.params.symbol),
});

export const signalScore = defineRoute({
  operationId: "getSignalScore",
  method: "GET",
  path: "/api/v1/signal-score/{symbol}",
  family: "A",
  envelope: "A",
  errors: AS_OF_ERRORS,
  tags: ["Market analytics"],
  summary: "Signal score for a ticker",
  description:
    "service_score (0–100) with its weighted components, sentiment, risk level, and the options metrics behind them.",
  authenticated: true,
  params: symbolParams,
  query: asOfQuery,
  response: schemas.signalScore,
  handler: (ctx) =>
    ctx.query.as_of
      ? asOfAnswer(ctx, ctx.params.symbol, ctx.query.as_of).then((d) => ({
          data: d.answers.signalScore,
          asOf: d.snapshot.asOf,
        }))
      : ctx.engine.signalScore(ctx.view, ctx.params.symbol),
});

export const optionsFlowQuery = z
  .object({
    symbol: symbolSchema.optional(),
    min_premium: nonNegativeIntString(1_000_000_000_000)
      .optional()
      .describe("Minimum premium of an event in USD (integer ≥ 0)."),
    type: caseInsensitiveEnum(["sweep", "block", "unusual"])
      .optional()
      .describe("Only events of this type (case-insensitive)."),
    since: isoDateTimeString.optional().describe("Only events at or after this time (ISO 8601 with zone)."),
    limit: nonNegativeIntString(500)
      .refine((n) => n >= 1, { message: "must be at least 1" })
      .optional()
      .describe("At most this many events (1–500, default 50)."),
    side: caseInsensitiveEnum(["ask", "ask_side", "mid", "bid_side", "bid", "unknown"])
      .optional()
      .describe("Only events with this side against the quote (case-insensitive)."),
    expiry_from: isoDateString.optional().describe("Only contracts expiring on or after this date (YYYY-MM-DD)."),
    expiry_to: isoDateString.optional().describe("Only contracts expiring on or before this date (YYYY-MM-DD)."),
    moneyness: caseInsensitiveEnum(["itm", "atm", "otm"])
      .optional()
      .describe("Only contracts in, at (strike within ±2.5 % of spot) or out of the money (case-insensitive)."),
  })
  .strict();

export const optionsFlow = defineRoute({
  operationId: "listOptionsFlow",
  method: "GET",
  path: "/api/v1/options-flow",
  family: "A",
  envelope: "A",
  errors: SYMBOL_ERRORS, // the optional symbol filter names an unknown symbol
  tags: ["Market analytics"],
  summary: "Options-flow events",
  description:
    "Sweeps, blocks and unusual-volume events built from option trades, newest first. Pending data licensing for " +
    "live keys by default.",
  authenticated: true,
  query: optionsFlowQuery,
  response: schemas.optionsFlow,
  handler: ({ engine, view, query }) =>
    engine.optionsFlow(view, {
      symbol: query.symbol,
      minPremium: query.min_premium,
      type: query.type,
      since: query.since,
      limit: query.limit ?? 50,
      side: query.side,
      expiryFrom: query.expiry_from,
      expiryTo: query.expiry_to,
      moneyness: query.moneyness,
    }),
});

export const familyARoutes = [tickerSummary, signalScore, optionsFlow];
