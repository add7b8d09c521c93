/** The engine's per-symbol answers (lib/engine/queries.ts): each reads one symbol's analytics from the current view. */
import type { z } from "zod";
import { EngineError } from "./errors";
import { DISCLAIMER } from "../contract/disclaimer";
import { type Payload, schemas } from "../contract/responses";
import { buildStrategyOutput } from "../analytics/strategy";
import { type StrategyRequest, StrategyInputError } from "../analytics/strategy-schema";
import { exerciseStyleOf } from "../analytics/types";
import type { SymbolAnalytics } from "./compute";
import { listedExpiries, openExpiries } from "./discovery";
import { aiSummaryData, noTradeData, signalScoreData, tickerSummaryData } from "./payloads";
import { type QueryContext, served } from "./query-context";
import type { ViewSpec } from "./types";

/** A symbol's payload under `key`, built once per analytics object and served as of the symbol's data. */
function symbolPayload<S extends z.ZodType>(
  ctx: QueryContext,
  spec: ViewSpec,
  symbol: string,
  key: string,
  schema: S,
  build: (a: SymbolAnalytics) => z.input<S>,
) {
  return ctx.withView(spec, (view) => {
    const a = ctx.symbolOf(spec, view, symbol);
    return served(
      ctx.ofSymbol(a, key, schema, () => build(a)),
      a.asOf,
    );
  });
}

export const tickerSummary = (ctx: QueryContext, spec: ViewSpec, symbol: string) =>
  symbolPayload(ctx, spec, symbol, "ticker", schemas.tickerSummary, tickerSummaryData);

export const signalScore = (ctx: QueryContext, spec: ViewSpec, symbol: string) =>
  symbolPayload(ctx, spec, symbol, "signal", schemas.signalScore, signalScoreData);

export function aiSummary(ctx: QueryContext, spec: ViewSpec, symbol: string) {
  const isMock = spec.env === "demo";
  return symbolPayload(ctx, spec, symbol, `ai:${isMock}`, schemas.aiSummary, (a) =>
    aiSummaryData(a, isMock, DISCLAIMER),
  );
}

export const noTrade = (ctx: QueryContext, spec: ViewSpec, symbol: string) =>
  symbolPayload(ctx, spec, symbol, "notrade", schemas.noTrade, (a) => noTradeData(a, DISCLAIMER));

export function expiries(ctx: QueryContext, spec: ViewSpec, symbol: string) {
  return ctx.withView(spec, (view) => {
    const a = ctx.symbolOf(spec, view, symbol);
    const listed = ctx.once(view, `expiries:${symbol}`, schemas.listedExpiries, () => listedExpiries(a.chain));
    const expiries = openExpiries(listed, ctx.now());
    return served<Payload<"expiries">>(
      {
        symbol,
        type: a.instrument.kind,
        spot: a.metrics.spot,
        expiries,
        count: expiries.length,
        asOf: a.asOf.toISOString(),
      },
      a.asOf,
    );
  });
}

export function researchOutput(ctx: QueryContext, spec: ViewSpec, sent: StrategyRequest) {
  const req = Object.assign({}, sent, { symbol: sent.symbol.toUpperCase() }); // symbols are case-insensitive on input
  return ctx.withView(spec, (view) => {
    const a = ctx.symbolOf(spec, view, req.symbol);
    try {
      const { output, riskFlags } = buildStrategyOutput(req, {
        spot: a.metrics.spot,
        asOf: ctx.now(),
        chain: a.chain,
        rate: view.rate,
        dividendYield: a.instrument.dividendYield,
        exerciseStyle: exerciseStyleOf(a.instrument),
        nextEarningsDate: a.instrument.nextEarningsDate,
        cashDividends: a.instrument.cashDividends,
      });
      return served(schemas.researchOutput.parse({ output, riskFlags, disclaimer: DISCLAIMER }), a.asOf);
    } catch (err) {
      if (err instanceof StrategyInputError)
        throw new EngineError("invalid", `body field '${err.field}': ${err.message}`, { field: err.field });
      throw err;
    }
  });
}
