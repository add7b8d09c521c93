/**
 * Answers the routes' questions from the current view. Each public payload is built and checked against its
 * response schema once per view, so a request only looks it up (no analytics work on the hot path).
 */
import type { z } from "zod";
import { EngineError } from "./errors";
import { DISCLAIMER } from "../contract/disclaimer";
import { type Payload, schemas } from "../contract/responses";
import { filterFlowEvents } from "../analytics/flow-filters";
import { buildStrategyOutput } from "../analytics/strategy";
import { StrategyInputError } from "../analytics/strategy-schema";
import { rankWatchlist } from "../analytics/watchlist";
import { round } from "../analytics/round";
import type { MarketView, SymbolAnalytics } from "./compute";
import { listedExpiries, openExpiries, symbolEntry } from "./discovery";
import { aiSummaryData, flowEventData, noTradeData, signalScoreData, tickerSummaryData } from "./payloads";
import type { AnalyticsEngine, FlowQuery, Served, ViewSpec } from "./types";
import { exerciseStyleOf } from "../analytics/types";
import type { SyncKind } from "../market/sync-schedule";

type Queries = Omit<AnalyticsEngine, "ready" | "stop">;

const MEMO_LIMIT = 5000;

const newestOf = (dates: Date[]): Date | null =>
  dates.length ? new Date(Math.max(...dates.map((d) => d.getTime()))) : null;
const unavailable = (what: string) =>
  new EngineError("unavailable", `No ${what} is available from the data source right now.`);

/**
 * Unknown to this environment → 404; known but without data (or an empty store) → 503 (docs/api-contract.md §1, §6).
 */
function symbolIn(view: MarketView, symbol: string): SymbolAnalytics {
  const analytics = view.symbols.get(symbol);
  if (analytics) return analytics;
  if (view.instruments.size === 0) throw unavailable("market data");
  if (view.instruments.has(symbol)) throw unavailable(`data for ${symbol}`);
  throw new EngineError("symbol_not_found", `The service has no data for symbol ${symbol}.`);
}

/**
 * Why live data of `kind` as of `asOf` is too old to serve now (null: serve it); the check owns its clock. See
 * docs/market-data.md "Staleness".
 */
export type StaleCheck = (kind: SyncKind, asOf: Date, subject?: string) => string | null;

/** A live answer refused with 503 when a kind it reads is past its staleness bound (a kind without data is not). */
function refuseStale(
  stale: StaleCheck | undefined,
  spec: ViewSpec,
  reads: Partial<Record<SyncKind, Date | null>>,
  subject?: string,
) {
  if (!stale || spec.env !== "live") return;
  for (const [kind, asOf] of Object.entries(reads) as [SyncKind, Date | null][]) {
    const why = asOf && stale(kind, asOf, subject);
    if (why) throw new EngineError("unavailable", why);
  }
}

/** Payloads built once: per view (`once`) and per symbol's analytics object (`ofSymbol`). */
function payloadMemos() {
  const memo = new WeakMap<MarketView, Map<string, unknown>>();
  /** Builds a payload once per view, validated (and stripped of anything undocumented) by its public schema. */
  function once<S extends z.ZodType>(view: MarketView, key: string, schema: S, build: () => z.input<S>): z.output<S> {
    let m = memo.get(view);
    if (!m) memo.set(view, (m = new Map()));
    const hit = m.get(key);
    if (hit !== undefined) return hit as z.output<S>;
    const value = schema.parse(build());
    if (m.size < MEMO_LIMIT) m.set(key, value); // callers choose keys (filters): bound what one view may hold
    return value;
  }
  const bySymbol = new WeakMap<SymbolAnalytics, Map<string, unknown>>();
  /** A symbol's payload, built once per analytics object: a view that reused the symbol's analytics reuses it too. */
  function ofSymbol<S extends z.ZodType>(
    a: SymbolAnalytics,
    key: string,
    schema: S,
    build: () => z.input<S>,
  ): z.output<S> {
    let m = bySymbol.get(a);
    if (!m) bySymbol.set(a, (m = new Map()));
    if (!m.has(key)) m.set(key, schema.parse(build()));
    return m.get(key) as z.output<S>;
  }
  return { once, ofSymbol };
}

export function createQueries(
  viewOf: (spec: ViewSpec) => MarketView | Promise<MarketView>,
  now: () => Date,
  stale?: StaleCheck,
): Queries {
  /** A symbol's analytics, refused with 503 when its live chain or daily bars are past their bounds. */
  const symbolOf = (spec: ViewSpec, view: MarketView, symbol: string): SymbolAnalytics => {
    const a = symbolIn(view, symbol);
    refuseStale(stale, spec, { chain: a.kindAsOf.chain, bars: a.kindAsOf.bars }, symbol);
    return a;
  };
  /** Answers from the current view without a promise when it is computed (the hot path). */
  const withView = <T>(spec: ViewSpec, answer: (view: MarketView) => T): T | Promise<T> => {
    const view = viewOf(spec);
    return view instanceof Promise ? view.then(answer) : answer(view);
  };
  const { once, ofSymbol } = payloadMemos();
  const served = <T>(data: T, asOf: Date | null): Served<T> => {
    if (!asOf) throw unavailable("market data");
    return { data, asOf };
  };
  const isMock = (spec: ViewSpec) => spec.env === "demo";

  return {
    tickerSummary(spec, symbol) {
      return withView(spec, (view) => {
        const a = symbolOf(spec, view, symbol);
        return served(
          ofSymbol(a, "ticker", schemas.tickerSummary, () => tickerSummaryData(a)),
          a.asOf,
        );
      });
    },
    signalScore(spec, symbol) {
      return withView(spec, (view) => {
        const a = symbolOf(spec, view, symbol);
        return served(
          ofSymbol(a, "signal", schemas.signalScore, () => signalScoreData(a)),
          a.asOf,
        );
      });
    },
    optionsFlow(spec, q: FlowQuery) {
      return withView(spec, (view) => {
        const symbolAsOf = q.symbol ? symbolOf(spec, view, q.symbol).asOf : null;
        const flowAsOf = view.flowAsOf;
        if (!flowAsOf) throw unavailable("options flow");
        refuseStale(stale, spec, { trades: view.kindAsOf.trades });
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
        const data = q.since ? schemas.optionsFlow.parse(build()) : once(view, key, schemas.optionsFlow, build);
        return served(data, symbolAsOf ?? flowAsOf);
      });
    },
    aiSummary(spec, symbol) {
      return withView(spec, (view) => {
        const a = symbolOf(spec, view, symbol);
        return served(
          ofSymbol(a, `ai:${isMock(spec)}`, schemas.aiSummary, () => aiSummaryData(a, isMock(spec), DISCLAIMER)),
          a.asOf,
        );
      });
    },
    noTrade(spec, symbol) {
      return withView(spec, (view) => {
        const a = symbolOf(spec, view, symbol);
        return served(
          ofSymbol(a, "notrade", schemas.noTrade, () => noTradeData(a, DISCLAIMER)),
          a.asOf,
        );
      });
    },
    yieldCurve(spec) {
      return withView(spec, (view) => {
        const curve = view.curve;
        const asOf = view.curveAsOf;
        if (!curve || !asOf) throw unavailable("Treasury yield curve");
        refuseStale(stale, spec, { treasury: asOf });
        return served(
          once(view, "curve", schemas.yieldCurve, () => ({
            ...curve,
            unit: "bp" as const,
            timestamp: asOf.toISOString(),
          })),
          asOf,
        );
      });
    },
    marketSentiment(spec) {
      return withView(spec, (view) => {
        const s = view.sentiment;
        const asOf = view.sentimentAsOf;
        if (!s || !asOf) throw unavailable("market sentiment");
        refuseStale(stale, spec, { chain: view.kindAsOf.chain, bars: view.kindAsOf.bars });
        return served(
          once(view, "sentiment", schemas.marketSentiment, () => ({
            ...s,
            timestamp: asOf.toISOString(),
          })),
          asOf,
        );
      });
    },
    watchlistRanking(spec, symbols) {
      return withView(spec, (view) => {
        const items: SymbolAnalytics[] = [];
        const unknown: Payload<"watchlistRanking">["unknown"] = [];
        let firstError: EngineError | null = null;
        for (const s of symbols) {
          try {
            items.push(symbolOf(spec, view, s));
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
        const asOf = new Date(Math.max(...items.map((a) => a.asOf.getTime())));
        const ranking = rankWatchlist(items.map((a) => ({ metrics: a.metrics, decision: a.noTrade.decision })));
        const data = once(view, `watch:${symbols.join(",")}`, schemas.watchlistRanking, () => ({
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
    },
    symbols(spec) {
      return withView(spec, (view) => {
        const data = once(view, "symbols", schemas.symbols, () => {
          const list = [...view.instruments.values()]
            .sort((a, b) => a.symbol.localeCompare(b.symbol))
            .map((i) => symbolEntry(i, view.symbols.get(i.symbol)));
          return { symbols: list, count: list.length };
        });
        const asOf = newestOf([...view.symbols.values()].map((a) => a.asOf));
        return served(data, asOf);
      });
    },
    expiries(spec, symbol) {
      return withView(spec, (view) => {
        const a = symbolOf(spec, view, symbol);
        const listed = once(view, `expiries:${symbol}`, schemas.listedExpiries, () => listedExpiries(a.chain));
        const expiries = openExpiries(listed, now());
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
    },
    researchOutput(spec, sent) {
      const req = { ...sent, symbol: sent.symbol.toUpperCase() }; // symbols are case-insensitive on input
      return withView(spec, (view) => {
        const a = symbolOf(spec, view, req.symbol);
        try {
          const { output, riskFlags } = buildStrategyOutput(req, {
            spot: a.metrics.spot,
            asOf: now(),
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
    },
  };
}
