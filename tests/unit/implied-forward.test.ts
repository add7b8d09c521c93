/**
 * The audit's forward case: a flat 25 % smile on a stock paying a $1 cash dividend that goes ex in 10 days (spot 100,
 * r = 4.5 %). Each option is priced exactly (Black-Scholes on the escrowed spot S − D·e^(−r·t), a textbook European
 * model), so the truth is skew25d = 0 and atmIv30 = 25 %; a forward from a continuous yield read +5.73 vol points of skew.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { bsmPrice, type OptionRight } from "../../lib/analytics/bsm";
import { computeSymbolMetrics } from "../../lib/analytics/vol-metrics";
import { impliedForward, impliedVolSmile, yearFraction } from "../../lib/analytics/vol-surface";
import type { Instrument, OptionQuote } from "../../lib/analytics/types";
import { NO_FLOW, flatDailyBars, quoteAt } from "./metrics-fixtures";

const asOf = new Date("2026-01-05T20:00:00Z");
const spot = 100;
const r = 0.045;
const exYears = 10 / 365;

function chain(): OptionQuote[] {
  return [9, 23, 37, 65].flatMap((d) => {
    const expiry = new Date(asOf.getTime() + d * 86_400_000).toISOString().slice(0, 10);
    const years = yearFraction(asOf, expiry);
    const escrowed = years > exYears ? spot - Math.exp(-r * exYears) : spot;
    return Array.from({ length: 33 }, (_, i) => 80 + 1.25 * i).flatMap((strike) =>
      (["C", "P"] as OptionRight[]).map((right) => {
        const price = bsmPrice({ spot: escrowed, strike, years, rate: r, dividendYield: 0, vol: 0.25, right });
        return quoteAt("DIV", asOf, { expiry, strike, right }, price * 0.99, price * 1.01);
      }),
    );
  });
}

const bars = flatDailyBars("DIV", spot, new Date(Date.UTC(2026, 0, 5)));

const instrument: Instrument = {
  symbol: "DIV",
  name: "Dividend payer",
  sector: "Utilities",
  kind: "equity",
  nextEarningsDate: null,
  dividendYield: 0,
  exerciseStyle: "european", // priced European above, so the reference is exact
};

const flow = NO_FLOW;

test("audit: $1 dividend ex in 10 days on a flat 25 % smile: skew25d 0, atmIv30 25 %", () => {
  const m = computeSymbolMetrics({
    instrument,
    dailyBars: bars,
    chain: chain(),
    ivHistory: [],
    flow,
    asOf,
    rate: () => r,
  });
  assert.ok(m.atmIv30 !== null && Math.abs(m.atmIv30 - 0.25) < 1e-6, `atmIv30 ${m.atmIv30}`);
  assert.ok(m.skew25d !== null && Math.abs(m.skew25d) < 1e-6, `skew25d ${m.skew25d}`);
});

test("implied forward: parity per expiry, the implied carry yield publishes the dividend, the smile is flat", () => {
  const smiles = impliedVolSmile(chain(), spot, asOf, () => r, 0);
  for (const s of smiles) {
    const escrowed = s.years > exYears ? spot - Math.exp(-r * exYears) : spot;
    const truth = escrowed * Math.exp(r * s.years);
    assert.equal(s.forwardSource, "parity");
    assert.ok(Math.abs(s.forward - truth) < 1e-9 * truth, `${s.expiry}: ${s.forward} vs ${truth}`);
    // Before the ex-date there is no carry beyond r; after it the $1 shows as a positive yield.
    if (s.years < exYears) assert.ok(Math.abs(s.dividendYield ?? Number.NaN) < 1e-9);
    else assert.ok((s.dividendYield ?? 0) > 0.05);
    for (const p of s.points) assert.ok(Math.abs(p.iv - 0.25) < 1e-7, `${s.expiry} K=${p.strike}: ${p.iv}`);
  }
});

test("implied forward falls back to the instrument's yield when no strike has both sides quoted", () => {
  const calls = chain().filter((q) => q.right === "C" && q.expiry === chain()[0].expiry);
  const f = impliedForward(calls, spot, 0.05, r, 0.02);
  assert.deepEqual(f, { forward: spot * Math.exp((r - 0.02) * 0.05), dividendYield: 0.02, source: "yield" });
});
