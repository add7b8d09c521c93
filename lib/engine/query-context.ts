/**
 * The state the engine's queries share (lib/engine/queries.ts): how to reach the current view, the staleness check,
 * the clock and the payload memos, passed to each query family as one explicit argument.
 */
import type { z } from "zod";
import { EngineError } from "./errors";
import type { MarketView, SymbolAnalytics } from "./compute";
import type { Served, ViewSpec } from "./types";
import type { SyncKind } from "../market/sync-schedule";

const MEMO_LIMIT = 5000;

export const unavailable = (what: string) =>
  new EngineError("unavailable", `No ${what} is available from the data source right now.`);

/** An answer with the as-of time of its data; without one there is no market data to serve (503). */
export const served = <T>(data: T, asOf: Date | null): Served<T> => {
  if (!asOf) throw unavailable("market data");
  return { data, asOf };
};

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

type Reads = Partial<Record<SyncKind, Date | null>>;

/** A live answer refused with 503 when a kind it reads is past its staleness bound (a kind without data is not). */
function refuseStale(stale: StaleCheck | undefined, spec: ViewSpec, reads: Reads, subject?: string) {
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

export interface QueryContext extends ReturnType<typeof payloadMemos> {
  /** Answers from the current view without a promise when it is computed (the hot path). */
  withView<T>(spec: ViewSpec, answer: (view: MarketView) => T): T | Promise<T>;
  /** A symbol's analytics, refused with 503 when its live chain or daily bars are past their bounds. */
  symbolOf(spec: ViewSpec, view: MarketView, symbol: string): SymbolAnalytics;
  /** Refuses a live answer whose reads are past their staleness bounds (see `refuseStale`). */
  refuseStale(spec: ViewSpec, reads: Reads, subject?: string): void;
  now: () => Date;
}

export function createQueryContext(
  viewOf: (spec: ViewSpec) => MarketView | Promise<MarketView>,
  now: () => Date,
  stale?: StaleCheck,
): QueryContext {
  return {
    ...payloadMemos(),
    withView<T>(spec: ViewSpec, answer: (view: MarketView) => T): T | Promise<T> {
      const view = viewOf(spec);
      return view instanceof Promise ? view.then(answer) : answer(view);
    },
    symbolOf(spec, view, symbol) {
      const a = symbolIn(view, symbol);
      refuseStale(stale, spec, { chain: a.kindAsOf.chain, bars: a.kindAsOf.bars }, symbol);
      return a;
    },
    refuseStale: (spec, reads, subject) => refuseStale(stale, spec, reads, subject),
    now,
  };
}
