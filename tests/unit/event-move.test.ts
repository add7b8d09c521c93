/**
 * The audit's earnings case: earnings in 1 day, a 25 % base vol plus a 6 % event move (spot 100). The weekly (4 days
 * and an hour to its close) then carries about 62 % IV and the plain formula published 100 × 0.62 × sqrt(1/365) = $3.26;
 * the market implies 100 × sqrt(0.25² / 365 + 0.06²) = $6.14 (hand-checked: sqrt(0.000171233 + 0.0036) = 0.0614104).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { bsmPrice, type OptionRight } from "../../lib/analytics/bsm";
import { eventVariance } from "../../lib/analytics/event-move";
import { computeSymbolMetrics } from "../../lib/analytics/vol-metrics";
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

function chain(expiries: string[]): OptionQuote[] {
  return expiries.flatMap((expiry) => {
    const years = yearFraction(asOf, expiry);
    return Array.from({ length: 21 }, (_, i) => 80 + 2 * i).flatMap((strike) =>
      (["C", "P"] as OptionRight[]).map((right) => {
        const price = bsmPrice({ spot: 100, strike, years, rate: 0.04, dividendYield: 0, vol: volOf(years), right });
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
