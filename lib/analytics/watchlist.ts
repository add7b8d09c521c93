/**
 * Watchlist ranking by a fixed mix of IV rank and liquidity; no_trade symbols stay in the list but are flagged.
 */
import type { SymbolMetrics } from "./types";
import { round } from "./round";

export type WatchlistDecision = "trade" | "caution" | "no_trade";

export interface WatchlistItem {
  metrics: SymbolMetrics;
  decision: WatchlistDecision;
}

export interface RankedSymbol {
  rank: number;
  symbol: string;
  score: number;
  ivRank: number | null;
  liquidityScore: number;
  decision: WatchlistDecision;
  noTrade: boolean;
}

export interface WatchlistRanking {
  ranked: RankedSymbol[];
  noTradeCount: number;
}

export const IV_RANK_WEIGHT = 0.6;
export const LIQUIDITY_WEIGHT = 0.4;

export const definitions: Record<string, string> = {
  ranked:
    "Array of { rank, symbol, score, ivRank, liquidityScore, decision, noTrade } sorted by score descending (the rounded score), ties broken by symbol ascending (plain character-code order); rank runs 1, 2, 3, … with no shared ranks.",
  score:
    "0–100, rounded to 0.1 (half away from zero): 0.6 × IV rank + 0.4 × liquidity score, both clamped to 0–100. The mix favours symbols whose options are rich relative to their own history (premium-selling and research interest) while still rewarding tradability. A missing IV rank contributes 0, so such a symbol can score at most 40.",
  ivRank: "IV rank 0–100 as input (null when unavailable; it then contributes 0 to score).",
  liquidityScore: "Liquidity score 0–100 as input (a non-finite value counts as 0).",
  decision: "The no-trade decision supplied for the symbol: trade, caution or no_trade.",
  noTrade: "true when decision is no_trade: the symbol is still ranked but flagged.",
  noTradeCount: "Number of ranked symbols whose decision is no_trade.",
};

const clamp100 = (x: number | null | undefined) =>
  typeof x === "number" && Number.isFinite(x) ? Math.max(0, Math.min(100, x)) : 0;

export function watchlistScore(m: Pick<SymbolMetrics, "ivRank" | "liquidityScore">): number {
  return round(IV_RANK_WEIGHT * clamp100(m.ivRank) + LIQUIDITY_WEIGHT * clamp100(m.liquidityScore), 1);
}

export function rankWatchlist(items: readonly WatchlistItem[]): WatchlistRanking {
  const scored = items.map(({ metrics: m, decision }) => ({
    symbol: m.symbol,
    score: watchlistScore(m),
    ivRank: typeof m.ivRank === "number" && Number.isFinite(m.ivRank) ? m.ivRank : null,
    liquidityScore: m.liquidityScore,
    decision,
    noTrade: decision === "no_trade",
  }));
  scored.sort((a, b) => b.score - a.score || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
  return {
    ranked: scored.map((s, i) => ({ rank: i + 1, ...s })),
    noTradeCount: scored.filter((s) => s.noTrade).length,
  };
}
