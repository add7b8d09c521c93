import { test } from "node:test";
import assert from "node:assert/strict";
import {
  breadthDetailFromBars,
  breadthFromBars,
  clampLinear,
  definitions,
  marketSentiment,
  sentimentLabel,
} from "../../lib/analytics/market-sentiment";
import type { Bar } from "../../lib/analytics/types";

const full = { putCallRatio: 0.9, volIndex: 18, volIndexAvg: 20, breadth: 0.65, momentum: 0.02, skew: 0.06 };

test("hand-computed composite: 65.5, greed", () => {
  // put/call 0.9: (1.3 − 0.9)/(1.3 − 0.5) = 0.5 → 50
  // vol ratio 18/20 = 0.9: (1.3 − 0.9)/(1.3 − 0.8) = 0.8 → 80
  // breadth 0.65: (0.65 − 0.2)/0.6 = 0.75 → 75
  // momentum +2 %: (0.02 + 0.05)/0.10 = 0.7 → 70
  // skew 0.06: (0.10 − 0.06)/0.08 = 0.5 → 50
  // 0.25×50 + 0.25×80 + 0.20×75 + 0.15×70 + 0.15×50 = 12.5 + 20 + 15 + 10.5 + 7.5 = 65.5
  const s = marketSentiment(full);
  assert.equal(s.score, 65.5);
  assert.equal(s.label, "greed");
  assert.equal(s.coverage, 1);
  assert.deepEqual(s.missing, []);
  assert.deepEqual(
    s.components.map((c) => [c.name, c.value, c.weight, c.score, c.contribution]),
    [
      ["put_call_ratio", 0.9, 0.25, 50, 12.5],
      ["vol_index_ratio", 0.9, 0.25, 80, 20],
      ["breadth", 0.65, 0.2, 75, 15],
      ["momentum", 0.02, 0.15, 70, 10.5],
      ["skew", 0.06, 0.15, 50, 7.5],
    ],
  );
  assert.equal(JSON.stringify(marketSentiment({ ...full })), JSON.stringify(s)); // deterministic
});

test("null components are dropped and the remaining weights renormalised", () => {
  // breadth and skew missing: remaining base weights 0.25 + 0.25 + 0.15 = 0.65
  // weights 0.25/0.65 = 0.384615…, 0.15/0.65 = 0.230769…
  // score = (0.25×50 + 0.25×80 + 0.15×70)/0.65 = 43/0.65 = 66.1538… → 66.2
  const s = marketSentiment({ ...full, breadth: null, skew: null });
  assert.equal(s.score, 66.2);
  assert.equal(s.label, "greed");
  assert.equal(s.coverage, 0.65);
  assert.deepEqual(s.missing, ["breadth", "skew"]);
  assert.deepEqual(
    s.components.map((c) => c.name),
    ["put_call_ratio", "vol_index_ratio", "momentum"],
  );
  assert.equal(s.components.find((c) => c.name === "put_call_ratio")!.weight, 0.384615);
  assert.equal(s.components.find((c) => c.name === "momentum")!.weight, 0.230769);
  assert.equal(s.components.find((c) => c.name === "vol_index_ratio")!.contribution, 30.77); // 0.384615… × 80 = 30.769…
});

test("vol index ratio needs both inputs and a positive average", () => {
  // only put/call remains: 100 % weight on 50 → 50.0 neutral
  const base = { putCallRatio: 0.9, volIndex: 18, volIndexAvg: null, breadth: null, momentum: null, skew: null };
  assert.equal(marketSentiment(base).score, 50);
  assert.deepEqual(marketSentiment({ ...base, volIndexAvg: 0 }).missing, [
    "vol_index_ratio",
    "breadth",
    "momentum",
    "skew",
  ]);
  assert.deepEqual(
    marketSentiment({ ...base, volIndexAvg: 0 }).components.map((c) => [c.name, c.weight, c.contribution]),
    [["put_call_ratio", 1, 50]],
  );
});

test("all inputs missing → 50 neutral with coverage 0", () => {
  const s = marketSentiment({
    putCallRatio: null,
    volIndex: null,
    volIndexAvg: null,
    breadth: null,
    momentum: null,
    skew: null,
  });
  assert.equal(s.score, 50);
  assert.equal(s.label, "neutral");
  assert.equal(s.coverage, 0);
  assert.deepEqual(s.components, []);
  assert.equal(s.missing.length, 5);
});

test("clamp-linear maps and clamps at both ends", () => {
  assert.equal(clampLinear(0.5, 1.3, 0.5), 100);
  assert.equal(clampLinear(0.3, 1.3, 0.5), 100); // clamped
  assert.equal(clampLinear(1.3, 1.3, 0.5), 0);
  assert.equal(clampLinear(2.0, 1.3, 0.5), 0); // clamped
  assert.equal(clampLinear(0, -0.05, 0.05), 50);
  // extreme fear: every input at or beyond its fear end → 0
  const fear = marketSentiment({
    putCallRatio: 1.5,
    volIndex: 40,
    volIndexAvg: 20,
    breadth: 0.1,
    momentum: -0.1,
    skew: 0.12,
  });
  assert.equal(fear.score, 0);
  assert.equal(fear.label, "extreme_fear");
  const greed = marketSentiment({
    putCallRatio: 0.4,
    volIndex: 12,
    volIndexAvg: 20,
    breadth: 0.9,
    momentum: 0.08,
    skew: 0.01,
  });
  assert.equal(greed.score, 100);
  assert.equal(greed.label, "extreme_greed");
});

test("label bands: lower bound inclusive, 100 in extreme_greed", () => {
  assert.equal(sentimentLabel(0), "extreme_fear");
  assert.equal(sentimentLabel(19.9), "extreme_fear");
  assert.equal(sentimentLabel(20), "fear");
  assert.equal(sentimentLabel(39.9), "fear");
  assert.equal(sentimentLabel(40), "neutral");
  assert.equal(sentimentLabel(59.9), "neutral");
  assert.equal(sentimentLabel(60), "greed");
  assert.equal(sentimentLabel(79.9), "greed");
  assert.equal(sentimentLabel(80), "extreme_greed");
  assert.equal(sentimentLabel(100), "extreme_greed");
  // composite landing exactly on 40: only momentum present, −1 % → (−0.01 + 0.05)/0.10 = 0.4 → 40.0 → neutral
  const s = marketSentiment({
    putCallRatio: null,
    volIndex: null,
    volIndexAvg: null,
    breadth: null,
    momentum: -0.01,
    skew: null,
  });
  assert.equal(s.score, 40);
  assert.equal(s.label, "neutral");
});

function dailyBars(symbol: string, closes: number[], lastDay = "2024-03-29"): Bar[] {
  const end = Date.parse(`${lastDay}T00:00:00Z`);
  return closes.map((close, i) => ({
    symbol,
    interval: "1d" as const,
    ts: new Date(end - (closes.length - 1 - i) * 86_400_000),
    open: close,
    high: close,
    low: close,
    close,
    volume: 1000,
  }));
}
const ramp = (n: number, from: number, step: number) => Array.from({ length: n }, (_, i) => from + i * step);

test("breadth: share of symbols closing strictly above their 50-day SMA on the latest date", () => {
  const bars = new Map<string, Bar[]>([
    ["UP", dailyBars("UP", ramp(50, 1, 1))], // closes 1…50, SMA 25.5, last 50 > 25.5 → above
    ["DOWN", dailyBars("DOWN", ramp(50, 50, -1))], // closes 50…1, last 1 < 25.5 → below
    ["FLAT", dailyBars("FLAT", Array(60).fill(10))], // close 10 = SMA 10 → not strictly above
    ["SHORT", dailyBars("SHORT", ramp(49, 1, 1))], // 49 bars → excluded
    ["STALE", dailyBars("STALE", ramp(60, 1, 1), "2024-03-28")], // no bar on 2024-03-29 → excluded
  ]);
  // 60-bar UP2: closes 1…60, last 50 are 11…60, SMA 35.5 < 60 → above (only the last 50 count)
  bars.set("UP2", dailyBars("UP2", ramp(60, 1, 1)));
  const d = breadthDetailFromBars(bars);
  // above: UP, UP2 (2); counted: UP, DOWN, FLAT, UP2 (4) → 2/4 = 0.5
  assert.deepEqual(d, { date: "2024-03-29", breadth: 0.5, above: 2, counted: 4, excluded: ["SHORT", "STALE"] });
  assert.equal(breadthFromBars(bars), 0.5);
  assert.equal(breadthFromBars(new Map()), null);
  // intraday bars are ignored
  const intraday = dailyBars("X", ramp(50, 1, 1)).map((b) => ({ ...b, interval: "5m" as const }));
  assert.equal(breadthFromBars(new Map([["X", intraday]])), null);
});

test("definitions cover outputs and every component", () => {
  for (const k of [
    "score",
    "label",
    "components",
    "missing",
    "coverage",
    "put_call_ratio",
    "vol_index_ratio",
    "breadth",
    "momentum",
    "skew",
    "breadthFromBars",
  ]) {
    assert.equal(typeof definitions[k], "string", k);
  }
});
