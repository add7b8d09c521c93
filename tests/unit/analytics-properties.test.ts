/**
 * Property-based suite (fast-check) over the analytics functions: random chains, histories, curves, prints and
 * metrics, including empty, flat, crossed and NaN-laden inputs. No output number is ever NaN or ±Infinity, ranks stay
 * in [0, 100], confidence in [0, 1], and every decision and label is one of its documented values.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { bsmGreeks } from "../../lib/analytics/bsm";
import { buildFlowEvents, classifySide, FLOW_SIDES, sentimentOf } from "../../lib/analytics/flow";
import { summarizeFlow } from "../../lib/analytics/flow-filters";
import { marketSentiment } from "../../lib/analytics/market-sentiment";
import { noTradeAnalysis } from "../../lib/analytics/no-trade";
import { round, roundOrNull } from "../../lib/analytics/round";
import { signalScore } from "../../lib/analytics/signal-score";
import {
  TENORS,
  type OptionQuote,
  type OptionTrade,
  type SymbolMetrics,
  type TreasuryYield,
} from "../../lib/analytics/types";
import {
  computeSymbolMetrics,
  ivRankAndPercentile,
  liquidityScore,
  putCallRatios,
} from "../../lib/analytics/vol-metrics";
import { buildYieldCurve, riskFreeRate } from "../../lib/analytics/yield-curve";

const RUNS = { numRuns: 150 };
/** Any double, including NaN, ±Infinity, −0 and extremes. */
const anyNum = fc.oneof(fc.double(), fc.constantFrom(Number.NaN, Infinity, -Infinity, 0, -0));
const maybe = <T>(a: fc.Arbitrary<T>) => fc.oneof(a, fc.constant(null));
/** Walks a value and fails on the first non-finite number, naming its path. */
function assertAllFinite(value: unknown, path = "$"): void {
  if (typeof value === "number") assert.ok(Number.isFinite(value), `${path} is ${value}`);
  else if (Array.isArray(value))
    value.forEach((v, i) => {
      assertAllFinite(v, `${path}[${i}]`);
    });
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) assertAllFinite(v, `${path}.${k}`);
}
const inRange = (x: number | null, lo: number, hi: number, what: string) =>
  assert.ok(x === null || (x >= lo && x <= hi), `${what} = ${x}`);

test("round: half away from zero, never −0, idempotent; roundOrNull maps every non-finite to null", () => {
  fc.assert(
    fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), fc.integer({ min: 0, max: 6 }), (x, dp) => {
      const r = round(x, dp);
      assert.ok(Number.isFinite(r) && !Object.is(r, -0));
      assert.equal(round(r, dp), r);
      assert.ok(Math.abs(r - x) <= 0.5 * 10 ** -dp + 1e-9 * Math.max(1, Math.abs(x)));
    }),
    RUNS,
  );
  for (const x of [Number.NaN, Infinity, -Infinity, null, undefined]) assert.equal(roundOrNull(x, 2), null);
  assert.deepEqual([round(2.5, 0), round(-2.5, 0), round(1.005, 2), round(-0.0001, 2)], [3, -3, 1.01, 0]);
});

test("IV rank and percentile: null or within [0, 100] for any history, flat or NaN-laden", () => {
  const history = fc.array(fc.oneof(fc.double({ min: 0.01, max: 3, noNaN: true }), anyNum, fc.constant(0.25)), {
    maxLength: 300,
  });
  fc.assert(
    fc.property(history, fc.oneof(fc.double({ min: 0.01, max: 3, noNaN: true }), anyNum), (h, cur) => {
      const r = ivRankAndPercentile(h, cur);
      inRange(r.ivRank, 0, 100, "ivRank");
      inRange(r.ivPercentile, 0, 100, "ivPercentile");
      assert.ok(Number.isInteger(r.lookbackDays) && r.lookbackDays >= 0);
    }),
    RUNS,
  );
});

test("BSM greeks are finite for any finite input, including zero vol and negative time", () => {
  const pos = fc.double({ min: 0.01, max: 1e4, noNaN: true });
  fc.assert(
    fc.property(
      pos,
      pos,
      fc.double({ min: -2, max: 10, noNaN: true }),
      fc.double({ min: -0.05, max: 0.2, noNaN: true }),
      fc.double({ min: 0, max: 0.2, noNaN: true }),
      fc.oneof(fc.constant(0), fc.double({ min: 0, max: 5, noNaN: true })),
      fc.constantFrom("C" as const, "P" as const),
      (spot, strike, years, rate, dividendYield, vol, right) => {
        const g = bsmGreeks({ spot, strike, years, rate, dividendYield, vol, right });
        assertAllFinite(g);
        assert.ok(g.price >= -1e-9 && Math.abs(g.delta) <= 1 + 1e-12);
      },
    ),
    RUNS,
  );
});

test("trade side: one of the documented values for any quote; unknown quotes are neutral", () => {
  fc.assert(
    fc.property(anyNum, anyNum, anyNum, fc.constantFrom("C" as const, "P" as const), (price, bid, ask, right) => {
      const side = classifySide(price, bid, ask);
      assert.ok((FLOW_SIDES as readonly string[]).includes(side), side);
      if (!(bid >= 0 && ask > 0 && bid <= ask)) assert.equal(side, "unknown");
      if (side === "unknown") assert.equal(sentimentOf(side, right), "neutral");
    }),
    RUNS,
  );
});

const quoteArb: fc.Arbitrary<OptionQuote> = fc
  .record({
    strike: fc.integer({ min: 50, max: 150 }),
    right: fc.constantFrom("C" as const, "P" as const),
    bid: fc.oneof(fc.double({ min: 0, max: 60, noNaN: true }), anyNum),
    ask: fc.oneof(fc.double({ min: 0, max: 60, noNaN: true }), anyNum),
    volume: fc.oneof(fc.integer({ min: 0, max: 1e5 }), anyNum),
    openInterest: fc.oneof(fc.integer({ min: 0, max: 1e6 }), anyNum),
    days: fc.integer({ min: 0, max: 400 }),
  })
  .map(({ days, ...q }) => ({
    ...q,
    symbol: "PROP",
    asOf: new Date("2026-03-02T18:00:00Z"),
    last: null,
    expiry: new Date(Date.parse("2026-03-02T00:00:00Z") + days * 86_400_000).toISOString().slice(0, 10),
  }));

test("chain metrics: liquidity in [0, 100] and finite totals and ratios for any chain, NaN counts included", () => {
  fc.assert(
    fc.property(fc.array(quoteArb, { maxLength: 40 }), (chain) => {
      const l = liquidityScore(chain, 100);
      assertAllFinite({ ...l, avgSpreadPct: l.avgSpreadPct ?? 0 });
      inRange(l.score, 0, 100, "liquidity");
      const r = putCallRatios(chain);
      assertAllFinite({ a: r.putCallVolumeRatio ?? 0, b: r.putCallOiRatio ?? 0 });
    }),
    RUNS,
  );
});

test("computeSymbolMetrics, signal score and no-trade: every number finite or null, every label documented", () => {
  const bars = fc.array(fc.oneof(fc.double({ min: 1, max: 500, noNaN: true }), anyNum), {
    minLength: 1,
    maxLength: 80,
  });
  const history = fc.array(
    fc.record({
      back: fc.integer({ min: 1, max: 800 }),
      v: fc.oneof(fc.double({ min: 0.05, max: 2, noNaN: true }), anyNum),
    }),
    { maxLength: 60 },
  );
  fc.assert(
    fc.property(fc.array(quoteArb, { maxLength: 30 }), bars, history, (chain, closes, hist) => {
      const asOf = new Date("2026-03-02T18:00:00Z");
      const dailyBars = [...closes, 100].map((close, i) => ({
        symbol: "PROP",
        interval: "1d" as const,
        ts: new Date(Date.parse("2026-03-02T00:00:00Z") - (closes.length - i) * 86_400_000),
        open: close,
        high: close,
        low: close,
        close,
        volume: 1,
      }));
      const ivHistory = hist.map((h) => ({
        date: new Date(asOf.getTime() - h.back * 86_400_000).toISOString().slice(0, 10),
        atmIv30: h.v,
      }));
      const flow = {
        bullishPremium: 0,
        bearishPremium: 0,
        netPremium: 0,
        sweepCount: 0,
        blockCount: 0,
        unusualCount: 0,
      };
      const instrument = {
        symbol: "PROP",
        name: "P",
        sector: "",
        kind: "equity" as const,
        nextEarningsDate: "2026-03-20",
        dividendYield: 0.01,
      };
      const m = computeSymbolMetrics({ instrument, dailyBars, chain, ivHistory, flow, asOf, rate: () => 0.04 });
      assertAllFinite(m);
      inRange(m.ivRank, 0, 100, "ivRank");
      inRange(m.ivPercentile, 0, 100, "ivPercentile");
      inRange(m.liquidityScore, 0, 100, "liquidityScore");
      const s = signalScore(m);
      assertAllFinite(s);
      inRange(s.service_score, 0, 100, "service_score");
      inRange(s.confidence, 0, 1, "confidence");
      assert.doesNotMatch(s.summary, /NaN|Infinity|undefined/);
      const nt = noTradeAnalysis(m, { marketSentimentScore: null, volIndex: null });
      assertAllFinite(nt);
      assert.ok(["trade", "caution", "no_trade"].includes(nt.decision));
      for (const c of nt.checks) assert.doesNotMatch(c.explanation, /NaN|Infinity/);
    }),
    { numRuns: 60 },
  );
});

test("signal score and no-trade on arbitrary metrics (NaN, null, ±Infinity anywhere): finite outputs, documented values", () => {
  const v = maybe(anyNum);
  const metrics: fc.Arbitrary<SymbolMetrics> = fc
    .record({
      atmIv30: v,
      ivRank: v,
      ivPercentile: v,
      hv30: v,
      putCallVolumeRatio: v,
      putCallOiRatio: v,
      skew25d: v,
      termSlope: v,
      daysToEarnings: v,
      liquidityScore: anyNum,
      avgSpreadPct: v,
      totalOptionVolume: anyNum,
      totalOpenInterest: anyNum,
      momentum20d: v,
      trend50d: v,
      bull: anyNum,
      bear: anyNum,
      unusual: anyNum,
    })
    .map(({ bull, bear, unusual, ...m }) => ({
      ...m,
      symbol: "ANY",
      asOf: "2026-03-02T18:00:00.000Z",
      spot: 100,
      ivLookbackDays: 0,
      expectedMove: null,
      flow: {
        bullishPremium: bull,
        bearishPremium: bear,
        netPremium: bull - bear,
        sweepCount: 0,
        blockCount: 0,
        unusualCount: unusual,
      },
    }));
  fc.assert(
    fc.property(metrics, maybe(anyNum), maybe(anyNum), (m, sentiment, vix) => {
      const s = signalScore(m);
      assertAllFinite(s);
      inRange(s.service_score, 0, 100, "service_score");
      inRange(s.confidence, 0, 1, "confidence");
      assert.ok(
        ["bullish", "bearish", "neutral"].includes(s.sentiment) && ["long", "short", "neutral"].includes(s.bias),
      );
      assert.ok(["low", "moderate", "elevated", "high"].includes(s.risk_level));
      assert.doesNotMatch(s.summary, /NaN|Infinity/);
      const nt = noTradeAnalysis(m, { marketSentimentScore: sentiment, volIndex: vix });
      assertAllFinite(nt);
      assert.ok(["trade", "caution", "no_trade"].includes(nt.decision));
      for (const c of nt.checks) assert.ok(["pass", "warn", "fail"].includes(c.status));
    }),
    RUNS,
  );
});

test("market sentiment: score in [0, 100], coverage in [0, 1], documented label for any inputs", () => {
  const v = maybe(anyNum);
  fc.assert(
    fc.property(v, v, v, v, v, v, (putCallRatio, volIndex, volIndexAvg, breadth, momentum, skew) => {
      const s = marketSentiment({ putCallRatio, volIndex, volIndexAvg, breadth, momentum, skew });
      assertAllFinite(s);
      inRange(s.score, 0, 100, "score");
      inRange(s.coverage, 0, 1, "coverage");
      assert.ok(["extreme_fear", "fear", "neutral", "greed", "extreme_greed"].includes(s.label));
    }),
    RUNS,
  );
});

test("yield curve: finite spreads and rates for any rows, partial or NaN-laden; documented shape", () => {
  const row: fc.Arbitrary<TreasuryYield> = fc.record({
    date: fc.constantFrom("2024-05-01", "2024-05-02", "2024-04-20", "2024-05-03"),
    tenor: fc.constantFrom(...TENORS),
    yieldPct: fc.oneof(fc.double({ min: -1, max: 20, noNaN: true }), anyNum),
  });
  fc.assert(
    fc.property(fc.array(row, { maxLength: 40 }), (rows) => {
      const c = buildYieldCurve(rows);
      if (c === null) return;
      assertAllFinite(c);
      assert.ok(["normal", "inverted", "flat", "humped"].includes(c.shape));
      assert.ok(c.oldestDate <= c.date);
      const r = riskFreeRate(c.curve);
      for (const y of [0, 0.1, 1, 7, 40]) assert.ok(Number.isFinite(r(y)));
    }),
    RUNS,
  );
});

test("flow events: finite numbers, documented sides and types, unusualCount counts contracts", () => {
  const trade: fc.Arbitrary<OptionTrade> = fc
    .record({
      ms: fc.integer({ min: 0, max: 3_600_000 }),
      strike: fc.constantFrom(95, 100, 105),
      right: fc.constantFrom("C" as const, "P" as const),
      price: fc.oneof(fc.double({ min: 0.01, max: 20, noNaN: true }), anyNum),
      size: fc.oneof(fc.integer({ min: 1, max: 500 }), anyNum),
      exchange: fc.constantFrom("CBOE", "BOX", "MIAX"),
      bid: fc.oneof(fc.double({ min: 0, max: 20, noNaN: true }), anyNum),
      ask: fc.oneof(fc.double({ min: 0, max: 20, noNaN: true }), anyNum),
      id: fc.uuid(),
    })
    .map(({ ms, id, ...t }) => ({
      ...t,
      tradeId: id,
      symbol: "PROP",
      ts: new Date(Date.parse("2026-03-02T15:00:00Z") + ms),
      expiry: "2026-03-20",
      condition: "AUTO",
    }));
  fc.assert(
    fc.property(
      fc.array(trade, { maxLength: 60 }),
      fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 200 })),
      (trades, oi) => {
        const events = buildFlowEvents(trades, () => oi);
        assertAllFinite(events);
        for (const e of events) {
          assert.ok((FLOW_SIDES as readonly string[]).includes(e.side));
          assert.ok(["sweep", "block", "unusual"].includes(e.type));
        }
        const s = summarizeFlow(events);
        assertAllFinite(s);
        const contracts = new Set(
          events.filter((e) => e.unusual).map((e) => `${e.contract.strike}${e.contract.right}`),
        );
        assert.equal(s.unusualCount, contracts.size);
        assert.ok(events.filter((e) => e.type === "unusual").length <= 6, "at most one unusual event per contract-day");
      },
    ),
    RUNS,
  );
});
