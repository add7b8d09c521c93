/**
 * The audit's earnings case: earnings in 1 day, a 25 % base vol plus a 6 % event move (spot 100). The weekly (4 days
 * and an hour to its close) then carries about 62 % IV and the plain formula published 100 × 0.62 × sqrt(1/365) = $3.26;
 * the market implies 100 × sqrt(0.25² / 365 + 0.06²) = $6.14 (hand-checked: sqrt(0.000171233 + 0.0036) = 0.0614104).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { bsmPrice, type OptionRight } from "../../lib/analytics/bsm";
import { eventSplit, eventVariance, expiryCarriesEvent } from "../../lib/analytics/event-move";
import { computeSymbolMetrics, expectedMoveToDate } from "../../lib/analytics/vol-metrics";
import { impliedVolSmile, yearFraction } from "../../lib/analytics/vol-surface";
import type { Bar, Instrument, OptionQuote } from "../../lib/analytics/types";
import { signalScore } from "../../lib/analytics/signal-score";
import { schemas } from "../../lib/contract/responses";
import type { SymbolAnalytics } from "../../lib/engine/compute";
import { signalScoreData } from "../../lib/engine/payloads";

const asOf = new Date("2026-01-05T20:00:00Z"); // Monday 15:00 New York
const EARNINGS = "2026-01-06";
const EXPIRIES = ["2026-01-09", "2026-02-06"];
const volOf = (years: number) => Math.sqrt((0.25 * 0.25 * years + 0.06 * 0.06) / years);

/** The base chain: each expiry at the ATM vol of 25 % diffusion plus a 6 % event move (chainAt below). */
function chain(expiries: string[]): OptionQuote[] {
  return chainAt(Object.fromEntries(expiries.map((e) => [e, volOf(yearFraction(asOf, e))])));
}

const bars: Bar[] = Array.from({ length: 60 }, (_, i) => ({
  symbol: "ERN",
  interval: "1d",
  ts: new Date(Date.UTC(2025, 10, 6 + i)),
  open: 100,
  high: 100,
  low: 100,
  close: 100,
  volume: 1e6,
}));
const instrument: Instrument = {
  symbol: "ERN",
  name: "Earnings Co",
  sector: "Tech",
  kind: "equity",
  nextEarningsDate: EARNINGS,
  dividendYield: 0,
  exerciseStyle: "european", // priced European above; the test is about the event split
};
const flow = { bullishPremium: 0, bearishPremium: 0, netPremium: 0, sweepCount: 0, blockCount: 0, unusualCount: 0 };

test("audit: earnings tomorrow, 25 % base + 6 % event: expected move $6.14, event move 6 %", () => {
  const weekly = volOf(yearFraction(asOf, EXPIRIES[0]));
  assert.ok(weekly > 0.6 && weekly < 0.63, `weekly IV ${weekly}`);
  const m = computeSymbolMetrics({
    instrument,
    dailyBars: bars,
    chain: chain(EXPIRIES),
    ivHistory: [],
    flow,
    asOf,
    rate: () => 0.04,
  });
  assert.ok(m.expectedMove !== null);
  assert.ok(Math.abs(m.expectedMove.move - 6.14104) < 1e-4, `move ${m.expectedMove.move}`);
  assert.ok(Math.abs((m.expectedMove.eventMovePct ?? 0) - 0.06) < 1e-9);
  assert.equal(m.expectedMove.days, 1);
});

test("event split from the nearest expiry before the event and the first after it", () => {
  // Event on Thursday 2026-01-08: the Wednesday expiry closes before it (no event variance), the Friday one after it.
  const quotes = chain(["2026-01-07", "2026-01-09"]).map((q) => {
    if (q.expiry !== "2026-01-07") return q;
    const years = yearFraction(asOf, q.expiry);
    const price = bsmPrice({
      spot: 100,
      strike: q.strike,
      years,
      rate: 0.04,
      dividendYield: 0,
      vol: 0.25,
      right: q.right,
    });
    return { ...q, bid: price * 0.99, ask: price * 1.01 };
  });
  const ev = eventVariance(
    impliedVolSmile(quotes, 100, asOf, () => 0.04, 0),
    "2026-01-08",
  );
  assert.ok(ev !== null);
  assert.ok(Math.abs(ev.baseVariance - 0.0625) < 1e-9, `base ${ev.baseVariance}`);
  assert.ok(Math.abs(ev.eventVariance - 0.0036) < 1e-9, `event ${ev.eventVariance}`);
  assert.deepEqual(ev.expiries, ["2026-01-07", "2026-01-09"]);
});

test("no event premium priced: no split, the plain expected move stands", () => {
  const flat = chain(EXPIRIES).map((q) => q); // flat total variance rate below
  const smiles = impliedVolSmile(flat, 100, asOf, () => 0.04, 0).map((s) => ({
    ...s,
    points: s.points.map((p) => ({ ...p, iv: 0.25 })),
  }));
  assert.equal(eventVariance(smiles, EARNINGS), null);
});

test("signal-score publishes expected_move.event_move_pct and the forwards per expiry, and its schema accepts them", () => {
  const m = computeSymbolMetrics({
    instrument,
    dailyBars: bars,
    chain: chain(EXPIRIES),
    ivHistory: [],
    flow,
    asOf,
    rate: () => 0.04,
  });
  const a = { instrument, metrics: m, signal: signalScore(m), asOf } as unknown as SymbolAnalytics;
  const data = schemas.signalScore.parse(signalScoreData(a));
  assert.equal(data.metrics.expected_move?.event_move_pct, 0.06);
  assert.equal(data.metrics.forwards.length, EXPIRIES.length);
  for (const f of data.metrics.forwards) {
    // The chain is priced on a 0 % yield at r = 4 %: parity gives back F = S·e^(rT) and q = 0.
    const years = yearFraction(asOf, f.expiry);
    assert.equal(f.source, "parity");
    assert.ok(Math.abs(f.forward - 100 * Math.exp(0.04 * years)) < 1e-4, `${f.expiry}: ${f.forward}`);
    assert.ok(Math.abs(f.implied_yield) < 1e-6, `${f.expiry}: ${f.implied_yield}`);
  }
});

// Issue 31, item 6: event timing and the one-expiry fallback.

/** A chain whose expiries are priced at the given ATM vols (flat smiles), European, r = 4 %, q = 0. */
function chainAt(vols: Record<string, number>): OptionQuote[] {
  return Object.entries(vols).flatMap(([expiry, vol]) => {
    const years = yearFraction(asOf, expiry);
    return Array.from({ length: 21 }, (_, i) => 80 + 2 * i).flatMap((strike) =>
      (["C", "P"] as OptionRight[]).map((right) => {
        const price = bsmPrice({ spot: 100, strike, years, rate: 0.04, dividendYield: 0, vol, right });
        return {
          symbol: "ERN",
          asOf,
          expiry,
          strike,
          right,
          bid: price * 0.99,
          ask: price * 1.01,
          last: null,
          volume: 10,
          openInterest: 100,
        };
      }),
    );
  });
}

const metricsOf = (inst: Instrument, quotes: OptionQuote[], dailyBars: Bar[] = bars) =>
  computeSymbolMetrics({ instrument: inst, dailyBars, chain: quotes, ivHistory: [], flow, asOf, rate: () => 0.04 });

/** Within 2 % of the market-implied figure (the bar), and within 1e-4 USD of the hand computation. */
function assertMarketImplied(move: number | undefined, implied: number) {
  assert.ok(move !== undefined, "an expected move");
  assert.ok(Math.abs(move / implied - 1) < 0.02, `move ${move} vs market-implied ${implied}`);
  assert.ok(Math.abs(move - implied) < 1e-4, `move ${move} vs ${implied}`);
}

test("expiryCarriesEvent: after_close is not inside an expiry on its date, before_open is, unknown cannot tell", () => {
  assert.equal(expiryCarriesEvent("2026-01-09", "2026-01-09", "after_close"), false);
  assert.equal(expiryCarriesEvent("2026-01-09", "2026-01-09", "before_open"), true);
  assert.equal(expiryCarriesEvent("2026-01-09", "2026-01-09", null), null);
  assert.equal(expiryCarriesEvent("2026-01-09", "2026-01-09", undefined), null);
  for (const timing of ["after_close", "before_open", null] as const) {
    assert.equal(expiryCarriesEvent("2026-01-08", "2026-01-09", timing), false);
    assert.equal(expiryCarriesEvent("2026-01-16", "2026-01-09", timing), true);
  }
});

/*
 * The after-close case: earnings Friday 2026-01-09 after the close, expiries Jan 9, 16 and Feb 20, as of Monday
 * 2026-01-05 15:00 New York (4 calendar days to the event). The market prices a 25 % base vol and a 6 % event: the Jan 9
 * options stop trading at that close, before the report, so they carry 25 % only; Jan 16 and Feb 20 carry
 * σ² = 0.25² + 0.06²/T. By hand (term-structure extraction): σb² = w(Jan 9)/T(Jan 9) = 0.0625, ve = w(Jan 16) −
 * 0.0625 × T(Jan 16) = 0.0036, so the market-implied move is 100 × sqrt(0.0625 × 4/365 + 0.0036) =
 * 100 × sqrt(0.000684932 + 0.0036) = $6.5459. Counting the Jan 9 expiry as carrying the event, as before, gave
 * 100 × 0.25 × sqrt(4/365) = $2.62.
 */
const AFTER_CLOSE_EVENT = "2026-01-09";
const IMPLIED_AFTER_CLOSE = 100 * Math.sqrt((0.0625 * 4) / 365 + 0.0036);
const afterCloseChain = () =>
  chainAt({
    "2026-01-09": 0.25,
    "2026-01-16": volOf(yearFraction(asOf, "2026-01-16")),
    "2026-02-20": volOf(yearFraction(asOf, "2026-02-20")),
  });

test("issue case: earnings after the close on an expiry date (Jan 9; expiries Jan 9, 16, Feb 20) → $6.55", () => {
  assert.ok(Math.abs(IMPLIED_AFTER_CLOSE - 6.5459) < 1e-4);
  const inst: Instrument = { ...instrument, nextEarningsDate: AFTER_CLOSE_EVENT, earningsTiming: "after_close" };
  const m = metricsOf(inst, afterCloseChain());
  assert.equal(m.expectedMove?.days, 4);
  assertMarketImplied(m.expectedMove?.move, IMPLIED_AFTER_CLOSE);
  assert.ok(Math.abs((m.expectedMove?.eventMovePct ?? 0) - 0.06) < 1e-6);
  assert.equal(m.expectedMove?.baseSource, "expiry_before");
  assert.equal(m.expectedMove?.timing, "after_close");
  const ev = eventVariance(
    impliedVolSmile(afterCloseChain(), 100, asOf, () => 0.04, 0),
    AFTER_CLOSE_EVENT,
    {
      timing: "after_close",
    },
  );
  assert.deepEqual(ev?.expiries, ["2026-01-09", "2026-01-16"]);
  assert.ok(Math.abs((ev?.baseVariance ?? 0) - 0.0625) < 1e-9);
  assert.ok(Math.abs((ev?.eventVariance ?? 0) - 0.0036) < 1e-9);
});

test("the same chain read as before_open reproduces the issue's $2.62; unknown timing leaves Jan 9 out → $6.55", () => {
  const asBeforeOpen = metricsOf(
    { ...instrument, nextEarningsDate: AFTER_CLOSE_EVENT, earningsTiming: "before_open" },
    afterCloseChain(),
  );
  // Jan 9 taken as carrying the event: the split prices none, and the plain move on Jan 9's 25 % is the issue's figure.
  assert.ok(Math.abs((asBeforeOpen.expectedMove?.move ?? 0) - 100 * 0.25 * Math.sqrt(4 / 365)) < 1e-4);
  assert.equal(Math.round((asBeforeOpen.expectedMove?.move ?? 0) * 100) / 100, 2.62);
  assert.equal(asBeforeOpen.expectedMove?.eventMovePct, undefined);
  for (const earningsTiming of [null, undefined]) {
    const m = metricsOf({ ...instrument, nextEarningsDate: AFTER_CLOSE_EVENT, earningsTiming }, afterCloseChain());
    assertMarketImplied(m.expectedMove?.move, IMPLIED_AFTER_CLOSE);
    assert.equal(m.expectedMove?.baseSource, "expiries_after"); // from Jan 16 and Feb 20
    assert.equal(m.expectedMove?.timing, null);
  }
});

test("before_open on an expiry date: that expiry carries the event (expiries Jan 9, 16, Feb 20) → $6.55", () => {
  const quotes = chainAt(
    Object.fromEntries(["2026-01-09", "2026-01-16", "2026-02-20"].map((e) => [e, volOf(yearFraction(asOf, e))])),
  );
  const m = metricsOf({ ...instrument, nextEarningsDate: AFTER_CLOSE_EVENT, earningsTiming: "before_open" }, quotes);
  assertMarketImplied(m.expectedMove?.move, IMPLIED_AFTER_CLOSE);
  assert.equal(m.expectedMove?.baseSource, "expiries_after");
  assert.equal(m.expectedMove?.timing, "before_open");
  // Read as after_close, the Jan 9 expiry (which does carry the event here) would be taken as pre-event: the timing matters.
  const wrong = metricsOf(
    { ...instrument, nextEarningsDate: AFTER_CLOSE_EVENT, earningsTiming: "after_close" },
    quotes,
  );
  assert.ok(Math.abs((wrong.expectedMove?.move ?? 0) / IMPLIED_AFTER_CLOSE - 1) > 0.02);
});

/*
 * One expiry after the event, none before it: the audit's case (earnings tomorrow, 25 % base + 6 % event) with the
 * weekly alone. The split has no second expiry, so the base rate comes from hv30: closes alternating 100 and 100·e^a with
 * a = 0.25 / sqrt(252 × 30/29) give 30 returns ±a, sample variance 30a²/29, hv30 = sqrt(30a²/29 × 252) = 25 %. Then
 * ve = w(weekly) − 0.25² × T = 0.0036 and the move is 100 × sqrt(0.0625/365 + 0.0036) = $6.14, the market-implied
 * figure; the plain formula on the weekly's 62 % IV (the code's answer before) was $3.26.
 */
const A = 0.25 / Math.sqrt((252 * 30) / 29);
const hvBars: Bar[] = Array.from({ length: 61 }, (_, i) => ({
  ...bars[0],
  ts: new Date(Date.UTC(2025, 10, 5 + i)),
  close: i % 2 === 0 ? 100 : 100 * Math.exp(A),
}));
const IMPLIED_ONE_EXPIRY = 100 * Math.sqrt(0.0625 / 365 + 0.0036);

test("one expiry after the event: base vol from hv30 → $6.14 (the plain formula said $3.26)", () => {
  const weekly = [EXPIRIES[0]];
  const m = metricsOf(instrument, chain(weekly), hvBars);
  assert.ok(Math.abs((m.hv30 ?? 0) - 0.25) < 1e-12, `hv30 ${m.hv30}`);
  assert.equal(m.spot, 100);
  assert.ok(Math.abs(IMPLIED_ONE_EXPIRY - 6.14104) < 1e-5);
  assertMarketImplied(m.expectedMove?.move, IMPLIED_ONE_EXPIRY);
  assert.ok(Math.abs((m.expectedMove?.eventMovePct ?? 0) - 0.06) < 1e-6);
  assert.equal(m.expectedMove?.baseSource, "hv30");
  const ev = eventVariance(
    impliedVolSmile(chain(weekly), 100, asOf, () => 0.04, 0),
    EARNINGS,
    { hv30: 0.25 },
  );
  assert.deepEqual(ev?.expiries, [EXPIRIES[0]]);
  // What the code answered before: the weekly's IV over one day.
  const weeklyIv = volOf(yearFraction(asOf, EXPIRIES[0]));
  assert.equal(Math.round(expectedMoveToDate(100, weeklyIv, asOf, EARNINGS)!.move * 100) / 100, 3.26);
});

test("one expiry after the event and no hv30 (or a zero one): the expected move is unknown (null)", () => {
  const weekly = chain([EXPIRIES[0]]);
  const short = metricsOf(instrument, weekly, bars.slice(-20)); // 20 closes: no 30-session hv
  assert.equal(short.hv30, null);
  assert.equal(short.expectedMove, null);
  assert.equal(short.daysToEarnings, 1);
  const flat = metricsOf(instrument, weekly, bars); // flat closes: hv30 = 0, no base to take
  assert.equal(flat.hv30, 0);
  assert.equal(flat.expectedMove, null);
  const smiles = impliedVolSmile(weekly, 100, asOf, () => 0.04, 0);
  assert.deepEqual(eventSplit(smiles, EARNINGS), { kind: "unknown" });
  assert.deepEqual(eventSplit(smiles, EARNINGS, { hv30: null }), { kind: "unknown" });
  // An hv30 above the weekly's whole variance rate: no event premium, the plain move on the weekly's IV.
  assert.deepEqual(eventSplit(smiles, EARNINGS, { hv30: 2 }), { kind: "no_premium" });
  assert.deepEqual(eventSplit(smiles, "2026-03-01"), { kind: "none" });
});

test("signal-score publishes expected_move.timing and base_source, and its schema accepts them", () => {
  const inst: Instrument = { ...instrument, nextEarningsDate: AFTER_CLOSE_EVENT, earningsTiming: "after_close" };
  const m = metricsOf(inst, afterCloseChain());
  const a = { instrument: inst, metrics: m, signal: signalScore(m), asOf } as unknown as SymbolAnalytics;
  const data = schemas.signalScore.parse(signalScoreData(a));
  assert.equal(data.metrics.expected_move?.timing, "after_close");
  assert.equal(data.metrics.expected_move?.base_source, "expiry_before");
  assert.equal(data.metrics.expected_move?.move, 6.55);
  const plain = metricsOf(
    { ...instrument, nextEarningsDate: AFTER_CLOSE_EVENT, earningsTiming: "before_open" },
    afterCloseChain(),
  );
  const p = schemas.signalScore.parse(
    signalScoreData({ instrument, metrics: plain, signal: signalScore(plain), asOf } as unknown as SymbolAnalytics),
  );
  assert.equal(p.metrics.expected_move?.base_source, null);
  assert.equal(p.metrics.expected_move?.event_move_pct, null);
  assert.equal(p.metrics.expected_move?.timing, "before_open");
});
