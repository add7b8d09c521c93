/** What the gateway's handlers ask of the analytics engine. Every answer says when its data is as of. */
import type { MarketEnv } from "../analytics/types";
import type { StrategyRequest } from "../analytics/strategy-schema";
import type { Payload, PayloadName } from "../contract/responses";

export type Entitlement = "demo" | "delayed-15m" | "live";
export type DataLabel = "live" | "delayed-15m" | "end-of-day" | "demo";

export interface Served<T> {
  data: T;
  /** As-of time of the newest market data the answer used. */
  asOf: Date;
}

export interface ViewSpec {
  env: MarketEnv;
  entitlement: Entitlement;
}

export interface FlowQuery {
  symbol?: string;
  minPremium?: number;
  type?: "sweep" | "block" | "unusual";
  since?: Date;
  limit: number;
  side?: "ask" | "ask_side" | "mid" | "bid_side" | "bid" | "unknown";
  expiryFrom?: string;
  expiryTo?: string;
  moneyness?: "itm" | "atm" | "otm";
}

/** A payload typed by its response schema (lib/contract/responses.ts). */
type Answer<K extends PayloadName> = Served<Payload<K>> | Promise<Served<Payload<K>>>;

/** Each answer is synchronous when the current view is computed, a promise only while the first one is. */
export interface AnalyticsEngine {
  tickerSummary(view: ViewSpec, symbol: string): Answer<"tickerSummary">;
  signalScore(view: ViewSpec, symbol: string): Answer<"signalScore">;
  optionsFlow(view: ViewSpec, query: FlowQuery): Answer<"optionsFlow">;
  aiSummary(view: ViewSpec, symbol: string): Answer<"aiSummary">;
  noTrade(view: ViewSpec, symbol: string): Answer<"noTrade">;
  yieldCurve(view: ViewSpec): Answer<"yieldCurve">;
  marketSentiment(view: ViewSpec): Answer<"marketSentiment">;
  watchlistRanking(view: ViewSpec, symbols: string[]): Answer<"watchlistRanking">;
  researchOutput(view: ViewSpec, request: StrategyRequest): Answer<"researchOutput">;
  /** Discovery: the instruments this environment has data for. */
  symbols(view: ViewSpec): Answer<"symbols">;
  /** Discovery: a symbol's open expiries with the strikes a strategy request may name. */
  expiries(view: ViewSpec, symbol: string): Answer<"expiries">;
  /** Whether the engine can currently read its store (for health). */
  ready(): boolean;
  stop(): Promise<void>;
}

/** Freshness label from the as-of time of the data used and the entitlement (documented in the API reference). */
export function dataLabel(view: ViewSpec, asOf: Date, now: Date): DataLabel {
  if (view.env === "demo") return "demo";
  const ageMs = now.getTime() - asOf.getTime();
  if (view.entitlement === "live" && ageMs <= 15 * 60_000) return "live";
  if (ageMs <= 30 * 60_000) return "delayed-15m";
  return "end-of-day";
}

/** Whether a label is final: `dataLabel` gives the same for the same data at every later time (data only ages). */
export const labelIsFinal = (label: DataLabel) => label === "demo" || label === "end-of-day";
