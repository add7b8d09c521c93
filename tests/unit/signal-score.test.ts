import { test } from "node:test";
import assert from "node:assert/strict";
import { definitions, riskFactors, riskLevelFromPoints, signalScore } from "../../lib/analytics/signal-score";
import type { SymbolMetrics } from "../../lib/analytics/types";

function metrics(over: Partial<SymbolMetrics> = {}): SymbolMetrics {
  return {
    symbol: "XYZ",
    asOf: "2024-05-02T20:00:00.000Z",
    spot: 123.45,
    atmIv30: 0.241,
    ivRank: 35,
    ivPercentile: 40,
    ivLookbackDays: 252,
    hv30: 0.205,
    putCallVolumeRatio: 0.7,
    putCallOiRatio: 0.9,
    skew25d: 0.05,
    termSlope: 0.01,
    expectedMove: { date: "2024-05-14", days: 12, move: 6.54, movePct: 5.3 },
    daysToEarnings: 12,
    liquidityScore: 80,
    avgSpreadPct: 0.02,
    totalOptionVolume: 50_000,
    totalOpenInterest: 400_000,
    momentum20d: 0.042,
    trend50d: 0.031,
    flow: { bullishPremium: 3e6, bearishPremium: 1e6, netPremium: 2e6, sweepCount: 4, blockCount: 2, unusualCount: 1 },
    ...over,
  };
}
const noFlow = { bullishPremium: 0, bearishPremium: 0, netPremium: 0, sweepCount: 0, blockCount: 0, unusualCount: 0 };

test("hand-computed score 65, bullish, confidence 0.66, bias long, risk low", () => {
  // component scores:  momentum 0.042/0.10 = 0.42 | trend 0.031/0.05 = 0.62 | flow 2e6/(3e6+1e6) = 0.5
  //   P/C OI (0.8 − 0.9)/0.4 = −0.25 | skew (0.04 − 0.05)/0.04 = −0.25 | IV rank (50 − 35)/50 = 0.3 | liquidity (80 − 50)/50 = 0.6
  // weighted: 0.2×0.42 + 0.2×0.62 + 0.2×0.5 + 0.1×(−0.25) + 0.15×(−0.25) + 0.1×0.3 + 0.05×0.6
  //         = 0.084 + 0.124 + 0.1 − 0.025 − 0.0375 + 0.03 + 0.03 = 0.3055 → 50 + 50×0.3055 = 65.275 → 65
  // confidence: |0.084 + 0.124 + 0.1 − 0.025 − 0.0375| / (0.084 + 0.124 + 0.1 + 0.025 + 0.0375) = 0.2455/0.3705 = 0.6626 → 0.66
  // risk: IV rank 35 → 0, hv30 0.205 → 0, earnings in 12 days → 1, liquidity 80 → 0 → 1 point → low
  const s = signalScore(metrics());
  assert.equal(s.service_score, 65);
  assert.equal(s.sentiment, "bullish");
  assert.equal(s.confidence, 0.66);
  assert.equal(s.bias, "long");
  assert.equal(s.risk_points, 1);
  assert.equal(s.risk_level, "low");
  assert.deepEqual(
    s.components.map((c) => [c.name, c.weight, c.score, c.contribution]),
    [
      ["momentum20d", 0.2, 0.42, 0.084],
      ["trend50d", 0.2, 0.62, 0.124],
      ["flow_net_premium_share", 0.2, 0.5, 0.1],
      ["put_call_oi_ratio", 0.1, -0.25, -0.025],
      ["skew25d", 0.15, -0.25, -0.0375],
      ["iv_rank", 0.1, 0.3, 0.03],
      ["liquidity", 0.05, 0.6, 0.03],
    ],
  );
  assert.equal(s.components.reduce((a, c) => a + c.weight, 0).toFixed(10), "1.0000000000");
  assert.equal(
    s.summary,
    "XYZ scores 65/100 (bullish). Implied volatility (30-day ATM 24.1%) ranks 35 in its 252-day range, against 30-day " +
      "realised volatility of 20.5%. Price is +4.2% over 20 sessions and 3.1% above its 50-day average. Options flow is " +
      "bullish: net premium $2.0M (+50.0% of directional premium). Positioning: put/call open-interest ratio 0.90; " +
      "25-delta skew 5.0 vol points. Earnings in 12 days (expected move ±$6.54). Risk level low (1 of 8 points); " +
      "liquidity score 80/100. Signal agreement 0.66; bias long.",
  );
  assert.equal(JSON.stringify(signalScore(metrics())), JSON.stringify(s)); // deterministic
});

test("missing inputs score 0 but keep their weight; coverage lowers confidence below 0.5 → neutral bias", () => {
  // skew, P/C OI missing and no flow: 0.2×0.42 + 0.2×0.62 + 0.1×0.3 + 0.05×0.6 = 0.268 → 50 + 13.4 = 63.4 → 63 bullish
  // agreement |0.208|/0.208 = 1; coverage (0.2 + 0.2)/0.85 = 0.4706 → confidence 0.47 < 0.5 → bias neutral
  const s = signalScore(metrics({ skew25d: null, putCallOiRatio: null, flow: noFlow }));
  assert.equal(s.service_score, 63);
  assert.equal(s.sentiment, "bullish");
  assert.equal(s.confidence, 0.47);
  assert.equal(s.bias, "neutral");
  const skew = s.components.find((c) => c.name === "skew25d")!;
  assert.deepEqual(skew, {
    name: "skew25d",
    value: null,
    available: false,
    directional: true,
    weight: 0.15,
    score: 0,
    contribution: 0,
  });
  assert.ok(s.summary.includes("No directional options flow was recorded."));
  assert.ok(
    s.summary.endsWith("Unavailable inputs, scored neutral: flow_net_premium_share, put_call_oi_ratio, skew25d."),
  );
});

test("strongly bearish symbol with every risk factor: score 7, short, high risk", () => {
  // momentum −0.12/0.10 → −1 (clamped) | trend −0.06/0.05 → −1 | flow −2e6/4e6 = −0.5 | P/C OI (0.8 − 1.3)/0.4 = −1.25 → −1
  // skew (0.04 − 0.09)/0.04 = −1.25 → −1 | IV rank (50 − 90)/50 = −0.8 | liquidity (25 − 50)/50 = −0.5
  // Σ = −0.2 − 0.2 − 0.1 − 0.1 − 0.15 − 0.08 − 0.025 = −0.855 → 50 − 42.75 = 7.25 → 7
  // risk: IV rank 90 → 2, hv30 0.70 → 2, earnings in 5 days → 2, liquidity 25 → 2 → 8 points → high
  const s = signalScore(
    metrics({
      momentum20d: -0.12,
      trend50d: -0.06,
      putCallOiRatio: 1.3,
      skew25d: 0.09,
      ivRank: 90,
      liquidityScore: 25,
      hv30: 0.7,
      daysToEarnings: 5,
      flow: { ...noFlow, bullishPremium: 1e6, bearishPremium: 3e6, netPremium: -2e6 },
    }),
  );
  assert.equal(s.service_score, 7);
  assert.equal(s.sentiment, "bearish");
  assert.equal(s.confidence, 1);
  assert.equal(s.bias, "short");
  assert.equal(s.risk_points, 8);
  assert.equal(s.risk_level, "high");
  assert.ok(s.summary.includes("Options flow is bearish: net premium -$2.0M (-50.0% of directional premium)."));
  assert.ok(s.summary.includes("Price is -12.0% over 20 sessions and 6.0% below its 50-day average."));
});

test("IV rank and liquidity alone cannot make a symbol bullish", () => {
  // no directional input; IV rank 0 → +1 × 0.1, liquidity 100 → +1 × 0.05: 0.15 → 57.5 → 58 (half away from zero) → neutral
  const s = signalScore(
    metrics({
      momentum20d: null,
      trend50d: null,
      putCallOiRatio: null,
      skew25d: null,
      ivRank: 0,
      liquidityScore: 100,
      flow: noFlow,
    }),
  );
  assert.equal(s.service_score, 58);
  assert.equal(s.sentiment, "neutral");
  assert.equal(s.confidence, 0); // no directional signal
  assert.equal(s.bias, "neutral");
});

test("sentiment boundaries: 60 is bullish, 40 is bearish", () => {
  const only = { trend50d: null, putCallOiRatio: null, skew25d: null, ivRank: null, liquidityScore: 50, flow: noFlow };
  // momentum +10 % → +1 × 0.2 = 0.2 → 60; liquidity 50 → 0
  const up = signalScore(metrics({ ...only, momentum20d: 0.1 }));
  assert.equal(up.service_score, 60);
  assert.equal(up.sentiment, "bullish");
  // agreement 1 × coverage 0.2/0.85 = 0.235 → 0.24 → bias neutral despite bullish sentiment
  assert.equal(up.confidence, 0.24);
  assert.equal(up.bias, "neutral");
  const down = signalScore(metrics({ ...only, momentum20d: -0.1 }));
  assert.equal(down.service_score, 40);
  assert.equal(down.sentiment, "bearish");
  // +9.4 % → 0.94 × 0.2 = 0.188 → 59.4 → 59 → neutral; +9.5 % → 0.19 → 59.5 → 60 (half away from zero) → bullish
  assert.equal(signalScore(metrics({ ...only, momentum20d: 0.094 })).service_score, 59);
  assert.equal(signalScore(metrics({ ...only, momentum20d: 0.094 })).sentiment, "neutral");
  assert.equal(signalScore(metrics({ ...only, momentum20d: 0.095 })).service_score, 60);
});

test("risk points at their thresholds", () => {
  const pts = (over: Partial<SymbolMetrics>) =>
    riskFactors(metrics({ ivRank: null, hv30: null, daysToEarnings: null, liquidityScore: 100, ...over })).map(
      (f) => f.points,
    );
  assert.deepEqual(pts({}), [0, 0, 0, 0]); // nulls add nothing
  assert.deepEqual(pts({ ivRank: 49.9 }), [0, 0, 0, 0]);
  assert.deepEqual(pts({ ivRank: 50 }), [1, 0, 0, 0]);
  assert.deepEqual(pts({ ivRank: 80 }), [2, 0, 0, 0]);
  assert.deepEqual(pts({ hv30: 0.35 }), [0, 1, 0, 0]);
  assert.deepEqual(pts({ hv30: 0.6 }), [0, 2, 0, 0]);
  assert.deepEqual(pts({ daysToEarnings: 7 }), [0, 0, 2, 0]);
  assert.deepEqual(pts({ daysToEarnings: 8 }), [0, 0, 1, 0]);
  assert.deepEqual(pts({ daysToEarnings: 21 }), [0, 0, 1, 0]);
  assert.deepEqual(pts({ daysToEarnings: 22 }), [0, 0, 0, 0]);
  assert.deepEqual(pts({ daysToEarnings: -1 }), [0, 0, 0, 0]); // past report: no event
  assert.deepEqual(pts({ liquidityScore: 60 }), [0, 0, 0, 0]);
  assert.deepEqual(pts({ liquidityScore: 59 }), [0, 0, 0, 1]);
  assert.deepEqual(pts({ liquidityScore: 29 }), [0, 0, 0, 2]);
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 8].map(riskLevelFromPoints), [
    "low",
    "low",
    "moderate",
    "moderate",
    "elevated",
    "elevated",
    "high",
    "high",
  ]);
});

test("definitions cover outputs and every component", () => {
  for (const k of [
    "service_score",
    "sentiment",
    "risk_level",
    "components",
    "confidence",
    "bias",
    "summary",
    "momentum20d",
    "trend50d",
    "flow_net_premium_share",
    "put_call_oi_ratio",
    "skew25d",
    "iv_rank",
    "liquidity",
  ]) {
    assert.equal(typeof definitions[k], "string", k);
  }
});
