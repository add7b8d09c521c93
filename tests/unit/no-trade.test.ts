import { test } from "node:test";
import assert from "node:assert/strict";
import { definitions, NO_TRADE_CATEGORIES, NO_TRADE_CHECKS, noTradeAnalysis } from "../../lib/analytics/no-trade";
import type { OptionQuote, SymbolMetrics } from "../../lib/analytics/types";
import { liquidityScore, putCallRatios } from "../../lib/analytics/chain-metrics";
import { signalScore } from "../../lib/analytics/signal-score";

// A clean, liquid symbol with no event in the next two weeks: every check passes.
function metrics(over: Partial<SymbolMetrics> = {}): SymbolMetrics {
  return {
    symbol: "XYZ",
    asOf: "2024-05-02T20:00:00.000Z",
    spot: 100,
    atmIv30: 0.25,
    ivRank: 35,
    ivPercentile: 40,
    ivLookbackDays: 252,
    hv30: 0.2,
    putCallVolumeRatio: 0.7,
    putCallOiRatio: 0.9,
    skew25d: 0.05,
    termSlope: 0.01,
    expectedMove: null,
    daysToEarnings: 30,
    liquidityScore: 80,
    avgSpreadPct: 0.02,
    totalOptionVolume: 50_000,
    totalOpenInterest: 400_000,
    momentum20d: 0.04,
    trend50d: 0.03,
    flow: { bullishPremium: 3e6, bearishPremium: 1e6, netPremium: 2e6, sweepCount: 4, blockCount: 2, unusualCount: 1 },
    ...over,
  };
}
const calm = { marketSentimentScore: 55, volIndex: 15 };
const status = (r: ReturnType<typeof noTradeAnalysis>, id: string) => r.checks.find((c) => c.id === id)!.status;

test("all 8 categories, at least one check each, stable ids; a clean symbol trades", () => {
  const r = noTradeAnalysis(metrics(), calm);
  assert.deepEqual(r.categories, ["liquidity", "spread", "volatility", "event", "trend", "flow", "tail", "market"]);
  assert.deepEqual([...NO_TRADE_CATEGORIES], r.categories);
  for (const c of r.categories)
    assert.ok(
      r.checks.some((k) => k.category === c),
      c,
    );
  assert.equal(r.checks.length, 15);
  assert.equal(new Set(r.checks.map((c) => c.id)).size, 15);
  assert.ok(r.checks.every((c) => c.status === "pass"));
  assert.equal(r.decision, "trade");
  assert.deepEqual(r.reasons, []);
  assert.deepEqual(r.checks[0], {
    id: "liquidity.score",
    category: "liquidity",
    status: "pass",
    value: 80,
    threshold: { warn: 40, fail: 20 },
    direction: "lower_is_worse",
    unit: "score 0-100",
    explanation: "Liquidity score 80.0 is above the warning threshold 40.0.",
  });
});

test("thresholds are inclusive on both sides", () => {
  assert.equal(status(noTradeAnalysis(metrics({ liquidityScore: 40.1 }), calm), "liquidity.score"), "pass");
  assert.equal(status(noTradeAnalysis(metrics({ liquidityScore: 40 }), calm), "liquidity.score"), "warn");
  assert.equal(status(noTradeAnalysis(metrics({ liquidityScore: 20 }), calm), "liquidity.score"), "fail");
  assert.equal(status(noTradeAnalysis(metrics({ avgSpreadPct: 0.05 }), calm), "spread.avg_pct"), "warn");
  assert.equal(status(noTradeAnalysis(metrics({ avgSpreadPct: 0.1 }), calm), "spread.avg_pct"), "fail");
  assert.equal(status(noTradeAnalysis(metrics({ daysToEarnings: 14 }), calm), "event.days_to_earnings"), "warn");
  assert.equal(status(noTradeAnalysis(metrics({ daysToEarnings: 3 }), calm), "event.days_to_earnings"), "fail");
  assert.equal(status(noTradeAnalysis(metrics({ termSlope: -0.02 }), calm), "volatility.term_slope"), "warn");
  assert.equal(status(noTradeAnalysis(metrics(), { ...calm, volIndex: 35 }), "market.vol_index"), "fail");
  // trend checks use absolute values: −16 % from the 50-day average warns like +16 %
  assert.equal(status(noTradeAnalysis(metrics({ trend50d: -0.16 }), calm), "trend.extension"), "warn");
});

test("one warning still trades; two warnings → caution; any fail → no_trade", () => {
  const one = noTradeAnalysis(metrics({ daysToEarnings: 12 }), calm);
  assert.equal(one.decision, "trade");
  assert.deepEqual(one.reasons, [
    {
      category: "event",
      checkId: "event.days_to_earnings",
      status: "warn",
      message: "Days to earnings 12 is at or below the warning threshold 14 (fail at 3).",
    },
  ]);

  const two = noTradeAnalysis(metrics({ daysToEarnings: 12 }), { ...calm, volIndex: 27.5 });
  assert.equal(two.decision, "caution");
  assert.deepEqual(
    two.reasons.map((r) => r.checkId),
    ["event.days_to_earnings", "market.vol_index"],
  );
  assert.equal(
    two.reasons[1].message,
    "Volatility index 27.50 is at or above the warning threshold 25.00 (fail at 35.00).",
  );

  // fail listed before warns, whatever the check order
  const fail = noTradeAnalysis(metrics({ daysToEarnings: 12, skew25d: 0.16 }), { ...calm, volIndex: 27.5 });
  assert.equal(fail.decision, "no_trade");
  assert.deepEqual(
    fail.reasons.map((r) => [r.checkId, r.status]),
    [
      ["tail.skew25d", "fail"],
      ["event.days_to_earnings", "warn"],
      ["market.vol_index", "warn"],
    ],
  );
  assert.equal(
    fail.reasons[0].message,
    "25-delta put-call skew 16.0 vol points is at or above the fail threshold 15.0 vol points.",
  );
});

test("null inputs are neutral passes and say so; past earnings is no event", () => {
  const r = noTradeAnalysis(metrics({ avgSpreadPct: null, ivRank: null, daysToEarnings: -2 }), {
    marketSentimentScore: null,
    volIndex: null,
  });
  assert.equal(r.decision, "trade");
  const spread = r.checks.find((c) => c.id === "spread.avg_pct")!;
  assert.equal(spread.status, "pass");
  assert.equal(spread.value, null);
  assert.equal(
    spread.explanation,
    "Average near-the-money bid-ask spread is not available; the check was not applied (neutral pass).",
  );
  assert.equal(r.checks.find((c) => c.id === "event.days_to_earnings")!.value, null);
  assert.equal(r.checks.find((c) => c.id === "market.sentiment")!.status, "pass");
});

test("risk-off market: sentiment 10 fails, 25 warns", () => {
  assert.equal(status(noTradeAnalysis(metrics(), { ...calm, marketSentimentScore: 25 }), "market.sentiment"), "warn");
  const r = noTradeAnalysis(metrics(), { ...calm, marketSentimentScore: 10 });
  assert.equal(r.decision, "no_trade");
  assert.equal(r.reasons[0].message, "Market sentiment score 10.0 is at or below the fail threshold 10.0.");
});

test("deterministic output and documented checks", () => {
  const a = JSON.stringify(noTradeAnalysis(metrics({ liquidityScore: 30 }), calm));
  assert.equal(JSON.stringify(noTradeAnalysis(metrics({ liquidityScore: 30 }), calm)), a);
  for (const c of NO_TRADE_CHECKS) assert.equal(typeof definitions[c.id], "string", c.id);
  for (const k of ["decision", "reasons", "checks", "categories"]) assert.equal(typeof definitions[k], "string", k);
  assert.equal(definitions["liquidity.score"], "Liquidity score (score 0-100); warn at ≤ 40, fail at ≤ 20.");
});

test("NaN passes as pass no longer: NaN volume or open interest gives a finite liquidity score, no NaN in checks or summary", () => {
  const quote = (o: Partial<OptionQuote>): OptionQuote => ({
    symbol: "XYZ",
    asOf: new Date("2024-05-02T20:00:00Z"),
    expiry: "2024-06-21",
    strike: 100,
    right: "C",
    bid: 1,
    ask: 1.1,
    last: null,
    volume: 10,
    openInterest: 100,
    ...o,
  });
  const liq = liquidityScore(
    [quote({ volume: Number.NaN }), quote({ right: "P", openInterest: Number.NaN }), quote({ strike: 101 })],
    100,
  );
  assert.ok(Number.isFinite(liq.score), `score ${liq.score}`);
  assert.deepEqual([liq.totalVolume, liq.totalOpenInterest], [20, 200]);
  const ratios = putCallRatios([
    quote({ volume: Number.NaN }),
    quote({ right: "P", volume: 5, openInterest: Number.NaN }),
  ]);
  assert.deepEqual(ratios, { putCallVolumeRatio: null, putCallOiRatio: 0 });
  // A NaN that reaches the metrics anyway is null in the check and the summary, never "NaN".
  const m = metrics({
    liquidityScore: Number.NaN,
    totalOptionVolume: Number.NaN,
    totalOpenInterest: Number.POSITIVE_INFINITY,
  });
  const r = noTradeAnalysis(m, calm);
  for (const id of ["liquidity.score", "liquidity.option_volume", "liquidity.open_interest"]) {
    const c = r.checks.find((x) => x.id === id)!;
    assert.equal(c.value, null, id);
    assert.match(c.explanation, /not available/);
  }
  const s = signalScore(m);
  assert.doesNotMatch(s.summary, /NaN|Infinity/);
  assert.match(s.summary, /liquidity score unavailable/);
});

test("all data missing means caution, not trade, with the reason", () => {
  const none = metrics({
    atmIv30: null,
    ivRank: null,
    ivPercentile: null,
    hv30: null,
    putCallVolumeRatio: null,
    putCallOiRatio: null,
    skew25d: null,
    termSlope: null,
    daysToEarnings: null,
    liquidityScore: Number.NaN,
    avgSpreadPct: null,
    totalOptionVolume: Number.NaN,
    totalOpenInterest: Number.NaN,
    momentum20d: null,
    trend50d: null,
    flow: {
      bullishPremium: 0,
      bearishPremium: 0,
      netPremium: 0,
      sweepCount: 0,
      blockCount: 0,
      unusualCount: Number.NaN,
    },
  });
  const r = noTradeAnalysis(none, { marketSentimentScore: null, volIndex: null });
  assert.equal(r.decision, "caution");
  const last = r.reasons.at(-1)!;
  assert.equal(last.checkId, "data.missing");
  assert.equal(last.status, "warn");
  assert.match(last.message, /^13 of 13 per-symbol checks have no data/);
  // Six missing checks (the usual gaps: no earnings, no IV history yet…) still trade.
  const some = noTradeAnalysis(
    metrics({
      ivRank: null,
      daysToEarnings: null,
      skew25d: null,
      termSlope: null,
      avgSpreadPct: null,
      putCallVolumeRatio: null,
    }),
    calm,
  );
  assert.equal(some.decision, "trade");
});
