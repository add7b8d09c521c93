/**
 * Answers the routes' questions from the current view. Each public payload is built and checked against its
 * response schema once per view, so a request only looks it up (no analytics work on the hot path). The answers live
 * in lib/engine/symbol-queries.ts (one symbol's analytics) and lib/engine/market-queries.ts (market-wide), each given
 * the shared state (lib/engine/query-context.ts) as its first argument.
 */
import type { MarketView } from "./compute";
import { createQueryContext, type StaleCheck } from "./query-context";
import * as market from "./market-queries";
import * as symbol from "./symbol-queries";
import type { AnalyticsEngine, ViewSpec } from "./types";

export type { StaleCheck } from "./query-context";

type Queries = Omit<AnalyticsEngine, "ready" | "stop">;

export function createQueries(
  viewOf: (spec: ViewSpec) => MarketView | Promise<MarketView>,
  now: () => Date,
  stale?: StaleCheck,
): Queries {
  const ctx = createQueryContext(viewOf, now, stale);
  return {
    tickerSummary: (spec, s) => symbol.tickerSummary(ctx, spec, s),
    signalScore: (spec, s) => symbol.signalScore(ctx, spec, s),
    optionsFlow: (spec, q) => market.optionsFlow(ctx, spec, q),
    aiSummary: (spec, s) => symbol.aiSummary(ctx, spec, s),
    noTrade: (spec, s) => symbol.noTrade(ctx, spec, s),
    yieldCurve: (spec) => market.yieldCurve(ctx, spec),
    marketSentiment: (spec) => market.marketSentiment(ctx, spec),
    watchlistRanking: (spec, symbols) => market.watchlistRanking(ctx, spec, symbols),
    symbols: (spec) => market.symbols(ctx, spec),
    expiries: (spec, s) => symbol.expiries(ctx, spec, s),
    researchOutput: (spec, request) => symbol.researchOutput(ctx, spec, request),
  };
}
