/**
 * The parity forward on American chains (issue 31, item 3). A flat 30 % smile, spot 100, r = 4.5 %, expiries 9, 18,
 * 30 and 60 days, each option priced by the product's American model: with a $1 cash dividend going ex in 18 days
 * (00:00 New York of the expiry day of the 18-day expiry, so the true forward there is 99.22), or a continuous 2 %
 * yield. Quotes are the model price ± half the width. The truth: skew 0, ATM 30 %, term slope 0.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { americanPrice } from "../../lib/analytics/american";
import type { OptionRight } from "../../lib/analytics/bsm";
import { computeSymbolMetrics } from "../../lib/analytics/vol-metrics";
import { cashDividendsBefore, impliedForward, impliedVolSmile, yearFraction } from "../../lib/analytics/vol-surface";
import type { CashDividendRow, Instrument, OptionQuote } from "../../lib/analytics/types";
import { impliedCashDividends } from "../../lib/analytics/implied-dividends";
import { NO_FLOW, flatDailyBars, quoteAt } from "./metrics-fixtures";

const asOf = new Date("2026-01-05T20:00:00Z");
const spot = 100;
const r = 0.045;
const vol = 0.3;
const DAYS = [9, 18, 30, 60];
const dividend: CashDividendRow = { symbol: "DIV", exDate: "2026-01-23", amount: 1 };
const dateIn = (days: number) => new Date(asOf.getTime() + days * 86_400_000).toISOString().slice(0, 10);

function chain(width: number, yieldQ: number, withDividend: boolean): OptionQuote[] {
  return DAYS.flatMap((d) => {
    const expiry = dateIn(d);
    const years = yearFraction(asOf, expiry);
    const cashDividends = withDividend ? cashDividendsBefore([dividend], asOf, years) : [];
    return Array.from({ length: 33 }, (_, i) => 80 + 1.25 * i).flatMap((strike) =>
      (["C", "P"] as OptionRight[]).map((right) => {
        const price = americanPrice({ spot, strike, years, rate: r, dividendYield: yieldQ, vol, right, cashDividends });
        const bid = Math.max(price - width / 2, 0.01);
        return quoteAt("DIV", asOf, { expiry, strike, right }, bid, bid + width);
      }),
    );
  });
}

/** The true forward of an expiry: (S − D·e^(−r·t_D))·e^(rT) with the dividend, S·e^((r−q)T) with the yield. */
function trueForward(years: number, yieldQ: number, withDividend: boolean): number {
  const pv = withDividend
    ? cashDividendsBefore([dividend], asOf, years).reduce((s, d) => s + d.amount * Math.exp(-r * d.years), 0)
    : 0;
  return (spot - pv) * Math.exp((r - yieldQ) * years);
}

const bars = flatDailyBars("DIV", spot, new Date(Date.UTC(2026, 0, 5)));
const flow = NO_FLOW;

function metrics(quotes: OptionQuote[], cashDividends?: CashDividendRow[]) {
  const instrument: Instrument = {
    symbol: "DIV",
    name: "Dividend payer",
    sector: "Energy",
    kind: "equity",
    nextEarningsDate: null,
    dividendYield: 0,
    exerciseStyle: "american",
    ...(cashDividends ? { cashDividends } : {}),
  };
  return computeSymbolMetrics({ instrument, dailyBars: bars, chain: quotes, ivHistory: [], flow, asOf, rate: () => r });
}

const VOL_POINT = 0.01;

test("a continuous-yield American chain with zero-width quotes keeps its parity forward: forward, ATM, skew exact", () => {
  // Before: the strip's own rounding (about 1e-4) exceeded the 1e-6 × spot tolerance, every expiry fell back to the
  // instrument's yield (0 here, the market's 2 %), and the skew read +0.86 vol points.
  const quotes = chain(0, 0.02, false);
  const smiles = impliedVolSmile(quotes, spot, asOf, () => r, 0, "american");
  assert.equal(smiles.length, DAYS.length);
  for (const s of smiles) {
    assert.equal(s.forwardSource, "parity", s.expiry);
    const truth = trueForward(s.years, 0.02, false);
    assert.ok(Math.abs(s.forward - truth) <= 1e-4 * spot, `${s.expiry}: ${s.forward} vs ${truth}`);
  }
  const m = metrics(quotes);
  assert.ok(Math.abs((m.atmIv30 ?? 0) - vol) <= 0.05 * VOL_POINT, `atmIv30 ${m.atmIv30}`);
  assert.ok(Math.abs(m.skew25d ?? 1) <= 0.05 * VOL_POINT, `skew25d ${m.skew25d}`);
  assert.ok(Math.abs(m.termSlope ?? 1) <= 0.05 * VOL_POINT, `termSlope ${m.termSlope}`);
});

test("a declared $1 dividend, 5-cent quotes: the forward strip settles on the escrowed model's forward; ATM, skew exact", () => {
  const quotes = chain(0.05, 0, true);
  for (const s of impliedVolSmile(quotes, spot, asOf, () => r, 0, "american", [dividend])) {
    assert.equal(s.forwardSource, "parity", s.expiry);
    const truth = trueForward(s.years, 0, true);
    assert.ok(Math.abs(s.forward - truth) <= 1e-4 * spot, `${s.expiry}: ${s.forward} vs ${truth}`);
  }
  const m = metrics(quotes, [dividend]);
  assert.ok(Math.abs((m.atmIv30 ?? 0) - vol) <= 0.05 * VOL_POINT, `atmIv30 ${m.atmIv30}`);
  assert.ok(Math.abs(m.skew25d ?? 1) <= 0.05 * VOL_POINT, `skew25d ${m.skew25d}`);
  assert.ok(Math.abs(m.termSlope ?? 1) <= 0.05 * VOL_POINT, `termSlope ${m.termSlope}`);
});

/** The expiries of a chain as impliedVolSmile reads them, for impliedCashDividends. */
function expiries(quotes: OptionQuote[]) {
  return DAYS.map((d) => {
    const expiry = dateIn(d);
    return { expiry, years: yearFraction(asOf, expiry), rate: r, quotes: quotes.filter((q) => q.expiry === expiry) };
  });
}
const dated = (rows: readonly CashDividendRow[], years: number) => cashDividendsBefore(rows, asOf, years);

for (const width of [0.05, 0]) {
  test(`an undeclared $1 dividend, ${width * 100}-cent quotes: the chain's own dividend is found; forward, ATM, skew exact`, () => {
    // Before: the continuous carry cannot hold a dividend the day before expiry (calls are exercised to catch it):
    // the 18-day forward read 99.61 for a true 99.22 (100.22, the yield forward, before that) and the 30-day ATM, skew
    // and term slope were 0.42, 0.23 and −0.31 vol points off. Read as a discrete dividend they are exact.
    const quotes = chain(width, 0, true);
    const found = impliedCashDividends(expiries(quotes), spot, 0, "2026-01-05", dated);
    assert.equal(found.length, 1);
    assert.equal(found[0].exDate, dividend.exDate);
    assert.ok(Math.abs(found[0].amount - 1) <= 1e-3, `amount ${found[0].amount}`);
    for (const s of impliedVolSmile(quotes, spot, asOf, () => r, 0, "american")) {
      assert.equal(s.forwardSource, "parity", s.expiry);
      const truth = trueForward(s.years, 0, true);
      assert.ok(Math.abs(s.forward - truth) <= 1e-4 * spot, `${s.expiry}: ${s.forward} vs ${truth}`);
    }
    const m = metrics(quotes);
    assert.ok(Math.abs((m.atmIv30 ?? 0) - vol) <= 0.05 * VOL_POINT, `atmIv30 ${m.atmIv30}`);
    assert.ok(Math.abs(m.skew25d ?? 1) <= 0.05 * VOL_POINT, `skew25d ${m.skew25d}`);
    assert.ok(Math.abs(m.termSlope ?? 1) <= 0.05 * VOL_POINT, `termSlope ${m.termSlope}`);
  });
}

/** The quotes with each mid moved by up to a cent, the same seeded draw every run. */
function noisy(quotes: OptionQuote[]): OptionQuote[] {
  let seed = 7;
  return quotes.map((q) => {
    seed = (seed * 16807) % 2147483647;
    const e = 0.01 * ((2 * seed) / 2147483647 - 1);
    return { ...q, bid: Math.max(q.bid + e, 0.01), ask: q.ask + e };
  });
}

test("an undeclared dividend under mids off by up to a cent: the same ex-date, the amount within 2 cents", () => {
  const found = impliedCashDividends(expiries(noisy(chain(0.05, 0, true))), spot, 0, "2026-01-05", dated);
  assert.equal(found.length, 1);
  assert.equal(found[0].exDate, dividend.exDate);
  assert.ok(Math.abs(found[0].amount - 1) <= 0.02, `amount ${found[0].amount}`);
});

test("continuous carries hold no discrete dividend: a 2 % yield, a 30 % borrow (zero-width, 5-cent, noisy quotes)", () => {
  for (const yieldQ of [0.02, 0.3]) {
    for (const width of [0, 0.05])
      assert.deepEqual(impliedCashDividends(expiries(chain(width, yieldQ, false)), spot, 0, "2026-01-05", dated), []);
    assert.deepEqual(
      impliedCashDividends(expiries(noisy(chain(0.05, yieldQ, false))), spot, 0, "2026-01-05", dated),
      [],
    );
  }
});

test("strikes that disagree by more than their widths, √n and the model's part still fall back (a stale quote)", () => {
  const expiry = dateIn(30);
  const years = yearFraction(asOf, expiry);
  const quotes = chain(0.05, 0.02, false).filter((q) => q.expiry === expiry);
  const good = impliedForward(quotes, spot, years, r, 0.02, "american");
  assert.equal(good.source, "parity");
  // The call nearest the money printed 60 cents rich: its strike's forward estimate moves by 0.6.
  const nearest = quotes
    .filter((q) => q.right === "C")
    .reduce((a, b) => (Math.abs(b.strike - good.forward) < Math.abs(a.strike - good.forward) ? b : a));
  const stale = quotes.map((q) => (q === nearest ? { ...q, bid: q.bid + 0.6, ask: q.ask + 0.6 } : q));
  assert.equal(impliedForward(stale, spot, years, r, 0.02, "american").source, "yield");
});
