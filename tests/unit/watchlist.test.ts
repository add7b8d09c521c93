import { test } from "node:test";
import assert from "node:assert/strict";
import { definitions, rankWatchlist, watchlistScore } from "../../lib/analytics/watchlist";
import type { SymbolMetrics } from "../../lib/analytics/types";

function metrics(symbol: string, ivRank: number | null, liquidityScore: number): SymbolMetrics {
  return {
    symbol,
    asOf: "2024-05-02T20:00:00.000Z",
    spot: 100,
    atmIv30: 0.3,
    ivRank,
    ivPercentile: null,
    ivLookbackDays: 252,
    hv30: 0.25,
    putCallVolumeRatio: null,
    putCallOiRatio: null,
    skew25d: null,
    termSlope: null,
    expectedMove: null,
    daysToEarnings: null,
    liquidityScore,
    avgSpreadPct: null,
    totalOptionVolume: 0,
    totalOpenInterest: 0,
    momentum20d: null,
    trend50d: null,
    flow: { bullishPremium: 0, bearishPremium: 0, netPremium: 0, sweepCount: 0, blockCount: 0, unusualCount: 0 },
  };
}

test("score = 0.6 × IV rank + 0.4 × liquidity, 1 decimal; null IV rank contributes 0", () => {
  assert.equal(watchlistScore({ ivRank: 73, liquidityScore: 61 }), 68.2); // 43.8 + 24.4
  assert.equal(watchlistScore({ ivRank: null, liquidityScore: 75 }), 30); // 0 + 30
  assert.equal(watchlistScore({ ivRank: 33.33, liquidityScore: 50 }), 40); // 19.998 + 20 = 39.998 → 40.0
  assert.equal(watchlistScore({ ivRank: 120, liquidityScore: -5 }), 60); // clamped to 100 and 0
});

test("ranked by score, ties by symbol ascending; no_trade symbols ranked and flagged", () => {
  const r = rankWatchlist([
    { metrics: metrics("MSFT", 50, 50), decision: "trade" }, // 30 + 20 = 50.0
    { metrics: metrics("TSLA", 90, 40), decision: "no_trade" }, // 54 + 16 = 70.0
    { metrics: metrics("AAPL", 50, 50), decision: "caution" }, // 50.0, ties MSFT → AAPL first
    { metrics: metrics("NEW", null, 75), decision: "trade" }, // 0 + 30 = 30.0
    { metrics: metrics("BRK.B", 40, 65), decision: "no_trade" }, // 24 + 26 = 50.0, ties → "BRK.B" between AAPL and MSFT
  ]);
  assert.deepEqual(r.ranked, [
    { rank: 1, symbol: "TSLA", score: 70, ivRank: 90, liquidityScore: 40, decision: "no_trade", noTrade: true },
    { rank: 2, symbol: "AAPL", score: 50, ivRank: 50, liquidityScore: 50, decision: "caution", noTrade: false },
    { rank: 3, symbol: "BRK.B", score: 50, ivRank: 40, liquidityScore: 65, decision: "no_trade", noTrade: true },
    { rank: 4, symbol: "MSFT", score: 50, ivRank: 50, liquidityScore: 50, decision: "trade", noTrade: false },
    { rank: 5, symbol: "NEW", score: 30, ivRank: null, liquidityScore: 75, decision: "trade", noTrade: false },
  ]);
  assert.equal(r.noTradeCount, 2);
});

test("order of the input does not change the output; empty list", () => {
  const items = [
    { metrics: metrics("B", 10, 10), decision: "trade" as const },
    { metrics: metrics("A", 10, 10), decision: "trade" as const },
    { metrics: metrics("C", 20, 0), decision: "trade" as const }, // 12 + 0 = 12.0 > 10.0
  ];
  const a = rankWatchlist(items);
  assert.deepEqual(
    a.ranked.map((x) => x.symbol),
    ["C", "A", "B"],
  );
  assert.equal(JSON.stringify(rankWatchlist([...items].reverse())), JSON.stringify(a));
  assert.deepEqual(rankWatchlist([]), { ranked: [], noTradeCount: 0 });
});

test("definitions document the mix", () => {
  for (const k of ["ranked", "score", "ivRank", "liquidityScore", "decision", "noTrade", "noTradeCount"]) {
    assert.equal(typeof definitions[k], "string", k);
  }
});
