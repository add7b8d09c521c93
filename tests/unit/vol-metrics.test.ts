import { test } from "node:test";
import assert from "node:assert/strict";
import { bsmPrice } from "../../lib/analytics/bsm";
import type { OptionRight } from "../../lib/analytics/bsm";
import type { Bar, Instrument, OptionQuote } from "../../lib/analytics/types";
import {
  computeSymbolMetrics,
  expectedMoveToDate,
  ivLookbackWindow,
  ivRankAndPercentile,
  liquidityScore,
  momentum,
  putCallRatios,
  realizedVol,
  symbolMetricsDefinitions,
  trendVsSma,
  yearFraction,
} from "../../lib/analytics/vol-metrics";

const close = (actual: number | null | undefined, expected: number, tol: number, what: string) =>
  assert.ok(
    actual != null && Math.abs(actual - expected) <= tol,
    `${what}: ${actual} not within ${tol} of ${expected}`,
  );

const NINETEEN = [
  0.1, 0.11, 0.12, 0.13, 0.14, 0.15, 0.16, 0.17, 0.18, 0.19, 0.2, 0.21, 0.22, 0.23, 0.24, 0.25, 0.26, 0.27, 0.28,
];

test("IV rank and percentile on a hand-computed 20-observation lookback", () => {
  // current 0.25: rank (0.25 − 0.10)/(0.28 − 0.10) = 83.33; 15 of 19 earlier days (0.10 … 0.24) strictly below → 78.95.
  const a = ivRankAndPercentile(NINETEEN, 0.25);
  close(a.ivRank, 83.3333333, 1e-6, "rank");
  close(a.ivPercentile, (15 / 19) * 100, 1e-9, "percentile");
  assert.equal(a.lookbackDays, 20);
  // current 0.20 equals one earlier value, which is not "below": 10 of 19.
  const b = ivRankAndPercentile(NINETEEN, 0.2);
  close(b.ivRank, 55.5555556, 1e-6, "rank");
  close(b.ivPercentile, 52.6315789, 1e-6, "percentile");
  // A new high and a new low.
  close(ivRankAndPercentile(NINETEEN, 0.5).ivRank, 100, 0, "new high rank");
  close(ivRankAndPercentile(NINETEEN, 0.5).ivPercentile, 100, 0, "new high percentile");
  close(ivRankAndPercentile(NINETEEN, 0.05).ivRank, 0, 0, "new low rank");
});

test("IV rank: null under 20 observations or a flat range", () => {
  const short = ivRankAndPercentile(NINETEEN.slice(1), 0.25);
  assert.deepEqual(short, { ivRank: null, ivPercentile: null, lookbackDays: 19 });
  assert.deepEqual(ivRankAndPercentile(Array(30).fill(0.2), 0.2), {
    ivRank: null,
    ivPercentile: null,
    lookbackDays: 31,
  });
});

test("near-flat IV range: 251 days at 0.25 and today 0.25 ± 6e-11 is a flat range (null), not rank 100 or 0", () => {
  const flat = Array(251).fill(0.25);
  assert.deepEqual(ivRankAndPercentile(flat, 0.25 + 6e-11), { ivRank: null, ivPercentile: null, lookbackDays: 252 });
  assert.deepEqual(ivRankAndPercentile(flat, 0.25 - 6e-11), { ivRank: null, ivPercentile: null, lookbackDays: 252 });
  // A real move of one vol point is still a range.
  close(ivRankAndPercentile(flat, 0.26).ivRank, 100, 0, "real new high");
});

const day = (today: string, back: number) =>
  new Date(Date.parse(`${today}T00:00:00Z`) - back * 86_400_000).toISOString().slice(0, 10);

test("lookback counts dates, not rows: gaps and NaN days never stretch 52 weeks past a year", () => {
  const today = "2026-06-30";
  // 49 old spikes at 0.90 dated 53–101 weeks ago fall outside; 251 recent days alternate 0.10 / 0.30 inside 52 weeks.
  const old = Array.from({ length: 49 }, (_, i) => ({ date: day(today, 371 + 7 * i), atmIv30: 0.9 }));
  const recent = Array.from({ length: 251 }, (_, i) => ({ date: day(today, 1 + i), atmIv30: i % 2 === 0 ? 0.1 : 0.3 }));
  const nan = Array.from({ length: 40 }, (_, i) => ({ date: day(today, 260 + i), atmIv30: Number.NaN }));
  const window = ivLookbackWindow([...old, ...nan, ...recent], today);
  assert.equal(window.length, 251);
  const r = ivRankAndPercentile(window, 0.2);
  assert.equal(r.lookbackDays, 252);
  close(r.ivRank, 50, 1e-9, "(0.2 − 0.1)/(0.3 − 0.1)");
  close(r.ivPercentile, (126 / 251) * 100, 1e-9, "126 of 251 at 0.10");
  // 364 days back is inside, 365 is outside; today's own date is never history.
  assert.deepEqual(
    ivLookbackWindow(
      [
        { date: day(today, 365), atmIv30: 0.5 },
        { date: day(today, 364), atmIv30: 0.4 },
        { date: today, atmIv30: 0.3 },
      ],
      today,
    ),
    [0.4],
  );
});

test("realised vol: closes 100, 110, 99, 108.9 → ln(11/9)·sqrt(252/3) = 1.839177 (hand-derived, sample stdev)", () => {
  // Returns a, b, a with a = ln 1.1, b = ln 0.9: sample variance (a − b)²/3, annualised × 252.
  close(realizedVol([100, 110, 99, 108.9], 3), 1.8391773, 1e-6, "hv3");
  assert.equal(realizedVol([100, 110, 99], 3), null, "needs window + 1 closes");
  close(realizedVol([50, ...Array(31).fill(100)], 30), 0, 0, "only the last 30 returns count");
  close(
    realizedVol([50, ...Array(30).fill(100)], 30),
    (Math.log(2) / Math.sqrt(30)) * Math.sqrt(252),
    1e-12,
    "one jump of ln 2 in 30 returns",
  );
});

test("momentum and trend versus SMA on hand-computed series", () => {
  close(momentum([100, ...Array(19).fill(105), 110], 20), 0.1, 1e-12, "110/100 − 1");
  assert.equal(momentum(Array(20).fill(100), 20), null);
  close(trendVsSma([...Array(49).fill(100), 150], 50), 150 / 101 - 1, 1e-12, "SMA (4900 + 150)/50 = 101");
  close(trendVsSma([...Array(49).fill(100), 150], 50), 0.4851485, 1e-6, "digits");
  assert.equal(trendVsSma(Array(49).fill(100), 50), null);
});

test("expected move: 100 × 40 % × sqrt(73/365) = 17.888544 from 2026-01-01 to 2026-03-15 (73 calendar days)", () => {
  const m = expectedMoveToDate(100, 0.4, new Date("2026-01-01T15:00:00Z"), "2026-03-15");
  assert.ok(m !== null);
  assert.equal(m.days, 73);
  close(m.move, 17.8885438, 1e-6, "move");
  close(m.movePct, 0.178885438, 1e-8, "movePct (fraction)");
  close(
    expectedMoveToDate(100, 0.25, new Date("2026-01-01T23:00:00Z"), "2026-01-01")?.move,
    1.3085598,
    1e-6,
    "same day = 1 day",
  );
  assert.equal(
    expectedMoveToDate(100, 0.4, new Date("2026-01-02T05:00:00Z"), "2026-01-01"),
    null,
    "past: midnight in New York",
  );
  // 00:00 UTC on Jan 2 is still Jan 1 (19:00 EST) on the exchange's clock: the event is today (0 days, priced as 1).
  assert.equal(
    expectedMoveToDate(100, 0.4, new Date("2026-01-02T00:00:00Z"), "2026-01-01")?.days,
    0,
    "New York date, not UTC",
  );
});

const quote = (
  strike: number,
  right: OptionRight,
  bid: number,
  ask: number,
  volume: number,
  openInterest: number,
): OptionQuote => ({
  symbol: "TEST",
  asOf: new Date("2026-01-05T20:00:00Z"),
  expiry: "2026-02-20",
  strike,
  right,
  bid,
  ask,
  last: null,
  volume,
  openInterest,
});

test("liquidity score on a 3-contract chain, computed by hand: 12.5 + 15 + 16.667 = 44.167", () => {
  const chain = [
    quote(100, "C", 1.9, 2.1, 500, 4000), // spread 0.2 / 2.0 = 10 %
    quote(95, "P", 0.9, 1.1, 400, 3000), // spread 0.2 / 1.0 = 20 %
    quote(120, "C", 0.1, 0.3, 99, 2999), // 20 % from spot: excluded from the spread mean
  ];
  const s = liquidityScore(chain, 100);
  close(s.avgSpreadPct, 0.15, 1e-12, "mean spread");
  close(s.spreadPoints, 12.5, 1e-9, "50 × (1 − 0.15/0.20)");
  close(s.volumePoints, 15, 1e-9, "25 × log10(1 + 999)/5");
  close(s.openInterestPoints, 16.6666667, 1e-6, "25 × log10(1 + 9999)/6");
  close(s.score, 44.1666667, 1e-6, "score");
  assert.equal(s.totalVolume, 999);
  assert.equal(s.totalOpenInterest, 9999);
  const empty = liquidityScore([], 100);
  assert.deepEqual([empty.score, empty.avgSpreadPct], [0, null]);
  close(
    liquidityScore([quote(100, "C", 1, 2, 1e6, 1e7)], 100).score,
    50,
    1e-9,
    "33 % spread → 0, volume and OI capped at 25",
  );
});

test("put/call ratios: volume 300/200 = 1.5, OI 1000/4000 = 0.25; null on zero denominators", () => {
  const chain = [
    quote(100, "P", 1, 1.1, 300, 1000),
    quote(100, "C", 1, 1.1, 150, 3000),
    quote(105, "C", 1, 1.1, 50, 1000),
  ];
  assert.deepEqual(putCallRatios(chain), { putCallVolumeRatio: 1.5, putCallOiRatio: 0.25 });
  assert.deepEqual(putCallRatios([quote(100, "P", 1, 1.1, 300, 1000)]), {
    putCallVolumeRatio: null,
    putCallOiRatio: null,
  });
});

test("computeSymbolMetrics on a flat 25 % chain with a hand-checkable price history", () => {
  const asOf = new Date("2026-01-05T20:00:00Z");
  const rate = () => 0.04;
  const q = 0.01;
  const spot = 110;
  // 59 closes at 100, then 110: hv30 = ln(1.1)·sqrt(252/30) = 0.2762350, momentum 0.10, trend 110/100.2 − 1.
  const dailyBars: Bar[] = Array.from({ length: 60 }, (_, i) => ({
    symbol: "TEST",
    interval: "1d",
    ts: new Date(Date.UTC(2025, 10, 7 + i)),
    open: 100,
    high: 100,
    low: 100,
    close: i === 59 ? 110 : 100,
    volume: 1e6,
  }));
  const chain: OptionQuote[] = [9, 23, 37, 65, 100].flatMap((d) =>
    [90, 95, 100, 105, 110, 115, 120, 125, 130].flatMap((strike) =>
      (["C", "P"] as OptionRight[]).map((right) => {
        const expiry = new Date(asOf.getTime() + d * 86_400_000).toISOString().slice(0, 10);
        const price = bsmPrice({
          spot,
          strike,
          years: yearFraction(asOf, expiry),
          rate: 0.04,
          dividendYield: q,
          vol: 0.25,
          right,
        });
        return {
          symbol: "TEST",
          asOf,
          expiry,
          strike,
          right,
          bid: price * 0.95,
          ask: price * 1.05,
          last: null,
          volume: 10,
          openInterest: 100,
        };
      }),
    ),
  );
  const instrument: Instrument = {
    symbol: "TEST",
    name: "Test",
    sector: "Tech",
    kind: "equity",
    nextEarningsDate: "2026-01-20",
    dividendYield: q,
    exerciseStyle: "european", // the chain is priced with BSM: this test is about assembling the metrics
  };
  const flow = { bullishPremium: 0, bearishPremium: 0, netPremium: 0, sweepCount: 0, blockCount: 0, unusualCount: 0 };
  const ivHistory = [0.1, 0.4, ...Array(17).fill(0.2)].map((atmIv30, i) => ({
    date: day(asOf.toISOString().slice(0, 10), 19 - i),
    atmIv30,
  }));
  const m = computeSymbolMetrics({ instrument, dailyBars, chain, ivHistory, flow, asOf, rate });

  assert.equal(m.spot, 110, "newest bar close");
  assert.equal(m.asOf, "2026-01-05T20:00:00.000Z");
  close(m.atmIv30, 0.25, 1e-6, "CM30");
  close(m.termSlope, 0, 1e-6, "term slope");
  close(m.skew25d, 0, 1e-6, "no skew on a flat surface");
  close(m.ivRank, 50, 1e-3, "(0.25 − 0.10)/(0.40 − 0.10)");
  close(m.ivPercentile, (18 / 19) * 100, 1e-9, "18 of 19 below");
  assert.equal(m.ivLookbackDays, 20);
  close(m.hv30, 0.276235, 1e-6, "hv30");
  close(m.momentum20d, 0.1, 1e-12, "momentum");
  close(m.trend50d, 110 / 100.2 - 1, 1e-12, "trend");
  assert.equal(m.daysToEarnings, 15);
  // First expiry on/after 2026-01-20 is the 23-day one (ATM IV 0.25): 110 × 0.25 × sqrt(15/365).
  assert.equal(m.expectedMove?.days, 15);
  close(m.expectedMove?.move, 110 * 0.25 * Math.sqrt(15 / 365), 1e-5, "expected move");
  assert.equal(m.putCallVolumeRatio, 1);
  assert.equal(m.putCallOiRatio, 1);
  assert.equal(m.totalOptionVolume, 900);
  assert.equal(m.totalOpenInterest, 9000);
  close(m.avgSpreadPct, 0.1, 1e-9, "every quote is mid ± 5 %");
  // Spread 50 × (1 − 0.5) = 25; volume 25 × log10(901)/5; OI 25 × log10(9001)/6.
  close(m.liquidityScore, 25 + 5 * Math.log10(901) + (25 / 6) * Math.log10(9001), 1e-9, "liquidity");
  assert.equal(m.flow, flow);
  for (const key of Object.keys(m).filter((k) => !["symbol", "flow", "expectedMove"].includes(k)))
    assert.ok(key in symbolMetricsDefinitions, `no definition for ${key}`);
});

test("computeSymbolMetrics without bars throws; past earnings give null days and move", () => {
  const instrument: Instrument = {
    symbol: "X",
    name: "X",
    sector: "",
    kind: "equity",
    nextEarningsDate: "2025-12-01",
    dividendYield: 0,
  };
  const flow = { bullishPremium: 0, bearishPremium: 0, netPremium: 0, sweepCount: 0, blockCount: 0, unusualCount: 0 };
  const base = { instrument, chain: [], ivHistory: [], flow, asOf: new Date("2026-01-05T20:00:00Z"), rate: () => 0.04 };
  assert.throws(() => computeSymbolMetrics({ ...base, dailyBars: [] }), RangeError);
  const bar: Bar = {
    symbol: "X",
    interval: "1d",
    ts: new Date("2026-01-05T00:00:00Z"),
    open: 1,
    high: 1,
    low: 1,
    close: 50,
    volume: 1,
  };
  const m = computeSymbolMetrics({ ...base, dailyBars: [bar] });
  assert.deepEqual(
    [m.daysToEarnings, m.expectedMove, m.atmIv30, m.ivRank, m.ivLookbackDays, m.hv30],
    [null, null, null, null, 0, null],
  );
  assert.equal(m.asOf, "2026-01-05T00:00:00.000Z");
});

test("the IV lookback refuses duplicate and malformed dates instead of counting them", async () => {
  const { ivLookbackWindow } = await import("../../lib/analytics/vol-metrics");
  const ok = [
    { date: "2025-03-01", atmIv30: 0.2 },
    { date: "2025-03-02", atmIv30: 0.3 },
  ];
  assert.deepEqual(ivLookbackWindow(ok, "2025-03-10"), [0.2, 0.3]);
  assert.throws(() => ivLookbackWindow([...ok, { date: "2025-03-02", atmIv30: 0.4 }], "2025-03-10"), RangeError);
  assert.throws(() => ivLookbackWindow([...ok, { date: "2025-3-3", atmIv30: 0.4 }], "2025-03-10"), RangeError);
  assert.throws(() => ivLookbackWindow([...ok, { date: "2025-02-30", atmIv30: 0.4 }], "2025-03-10"), RangeError);
  // Gregorian leap years: every 4th, but not a century unless it divides by 400.
  const feb29 = (year: string) => () => ivLookbackWindow([{ date: `${year}-02-29`, atmIv30: 0.4 }], `${year}-03-10`);
  assert.deepEqual(feb29("2024")(), [0.4]);
  assert.deepEqual(feb29("2000")(), [0.4]);
  assert.throws(feb29("2100"), RangeError);
  assert.throws(feb29("2025"), RangeError);
  for (const date of ["2025-00-10", "2025-13-01", "2025-04-31", "2025-01-00", "2025-01-32"])
    assert.throws(() => ivLookbackWindow([{ date, atmIv30: 0.4 }], "2026-01-01"), RangeError, date);
});
