/** The engine's market-wide answers (lib/engine/queries.ts): flow, the yield curve, sentiment, rankings, discovery. */
import { EngineError } from "./errors";
import { type Payload, schemas } from "../contract/responses";
import { filterFlowEvents } from "../analytics/flow-filters";
import { rankWatchlist } from "../analytics/watchlist";
import { round } from "../analytics/round";
import type { MarketView, SymbolAnalytics } from "./compute";
import { symbolEntry } from "./discovery";
import { flowEventData } from "./payloads";
import { type QueryContext, served, unavailable } from "./query-context";
import type { FlowQuery, ViewSpec } from "./types";

const newestOf = (dates: Date[]): Date | null =>
  dates.length ? new Date(Math.max(...dates.map((d) => d.getTime()))) : null;

export function optionsFlow(ctx: QueryContext, spec: ViewSpec, q: FlowQuery) {
  return ctx.withView(spec, (view) => {
    const symbolAsOf = q.symbol ? ctx.symbolOf(spec, view, q.symbol).asOf : null;
    const flowAsOf = view.flowAsOf;
    if (!flowAsOf) throw unavailable("options flow");
    ctx.refuseStale(spec, { trades: view.kindAsOf.trades });
    // Filtered and sorted only when the payload is built: a cached answer costs a lookup, not a sort of every
    // event.
    const build = () => {
      const events = filterFlowEvents(view.flowEvents, {
        symbol: q.symbol,
        minPremium: q.minPremium,
        type: q.type,
        since: q.since,
        limit: q.limit,
        side: q.side,
        expiryFrom: q.expiryFrom,
        expiryTo: q.expiryTo,
        moneyness: q.moneyness,
      });
      return { events: events.map(flowEventData), count: events.length };
    };
    const key = `flow:${q.symbol ?? ""}:${q.minPremium ?? ""}:${q.type ?? ""}:${q.limit}:${q.side ?? ""}:${q.expiryFrom ?? ""}:${q.expiryTo ?? ""}:${q.moneyness ?? ""}`;
    const data = q.since ? schemas.optionsFlow.parse(build()) : ctx.once(view, key, schemas.optionsFlow, build);
    return served(data, symbolAsOf ?? flowAsOf);
  });
}

export function yieldCurve(ctx: QueryContext, spec: ViewSpec) {
  return ctx.withView(spec, (view) => {
    const curve = view.curve;
    const asOf = view.curveAsOf;
    if (!curve || !asOf) throw unavailable("Treasury yield curve");
    ctx.refuseStale(spec, { treasury: asOf });
    return served(
      ctx.once(view, "curve", schemas.yieldCurve, () => ({
        ...curve,
        unit: "bp" as const,
        timestamp: asOf.toISOString(),
      })),
      asOf,
    );
  });
}

export function marketSentiment(ctx: QueryContext, spec: ViewSpec) {
  return ctx.withView(spec, (view) => {
    const s = view.sentiment;
    const asOf = view.sentimentAsOf;
    if (!s || !asOf) throw unavailable("market sentiment");
    ctx.refuseStale(spec, { chain: view.kindAsOf.chain, bars: view.kindAsOf.bars });
    return served(
      ctx.once(view, "sentiment", schemas.marketSentiment, () => ({
        ...s,
        timestamp: asOf.toISOString(),
      })),
      asOf,
    );
  });
}

/** The symbols' analytics, and for each one without, the reason in the API's own error codes. */
function rankable(ctx: QueryContext, spec: ViewSpec, view: MarketView, symbols: string[]) {
  const items: SymbolAnalytics[] = [];
  const unknown: Payload<"watchlistRanking">["unknown"] = [];
  let firstError: EngineError | null = null;
  for (const s of symbols) {
    try {
      items.push(ctx.symbolOf(spec, view, s));
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      firstError ??= err;
      // The reason in the API's own error codes, as a single-symbol call would answer.
      unknown.push({
        symbol: s,
        reason: err.code === "unavailable" ? "data_source_unavailable" : "symbol_not_found",
        message: err.message,
      });
    }
  }
  // Nothing to rank: the same error as a single unknown symbol.
  if (items.length === 0) throw firstError ?? new EngineError("invalid", "No symbols to rank.");
  return { items, unknown };
}

export function watchlistRanking(ctx: QueryContext, spec: ViewSpec, symbols: string[]) {
  return ctx.withView(spec, (view) => {
    const { items, unknown } = rankable(ctx, spec, view, symbols);
    const asOf = new Date(Math.max(...items.map((a) => a.asOf.getTime())));
    const ranking = rankWatchlist(items.map((a) => ({ metrics: a.metrics, decision: a.noTrade.decision })));
    const data = ctx.once(view, `watch:${symbols.join(",")}`, schemas.watchlistRanking, () => ({
      symbols,
      ranked: ranking.ranked.map((r) => ({
        ...r,
        ivRank: r.ivRank === null ? null : round(r.ivRank, 1),
        liquidityScore: round(r.liquidityScore, 1),
      })),
      noTradeCount: ranking.noTradeCount,
      unknown,
      timestamp: asOf.toISOString(),
    }));
    return served(data, asOf);
  });
}

export function symbols(ctx: QueryContext, spec: ViewSpec) {
  return ctx.withView(spec, (view) => {
    const data = ctx.once(view, "symbols", schemas.symbols, () => {
      const list = [...view.instruments.values()]
        .sort((a, b) => a.symbol.localeCompare(b.symbol))
        .map((i) => symbolEntry(i, view.symbols.get(i.symbol)));
      return { symbols: list, count: list.length };
    });
    const asOf = newestOf([...view.symbols.values()].map((a) => a.asOf));
    return served(data, asOf);
  });
}
