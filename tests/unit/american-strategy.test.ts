/**
 * The audit's strategy case: a long put K=130, 102 days out, spot 100, r = 4.5 %, on a chain priced as American at a
 * flat 30 % vol by the independent Leisen–Reimer tree. Exercising now is optimal, so the mid is the exercise value:
 * the leg reads the 30 % ATM IV (the European solve read 41.9 %) and delta −1 (European −0.845), vega 0.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { buildStrategyOutput, type StrategyContext } from "../../lib/analytics/strategy";
import { cashDividendsBefore, yearFraction } from "../../lib/analytics/vol-surface";
import { americanPrice } from "../../lib/analytics/american";
import type { OptionQuote } from "../../lib/analytics/types";
import { leisenReimer } from "./american-reference";

const AS_OF = new Date("2026-11-19T21:00:00.000Z"); // a Thursday close
const EXPIRY = "2027-03-01"; // a Monday: 102 calendar days later
const years = yearFraction(AS_OF, EXPIRY);

function chain(): OptionQuote[] {
  const out: OptionQuote[] = [];
  for (const strike of [90, 95, 100, 105, 110, 120, 130])
    for (const right of ["C", "P"] as const) {
      const mid = leisenReimer({ spot: 100, strike, years, rate: 0.045, dividendYield: 0, vol: 0.3, right }, 2001);
      out.push({
        symbol: "ACME",
        asOf: AS_OF,
        expiry: EXPIRY,
        strike,
        right,
        bid: mid,
        ask: mid,
        last: null,
        volume: 10,
        openInterest: 1000,
      });
    }
  return out;
}

const ctx = (o: Partial<StrategyContext>): StrategyContext => ({
  spot: 100,
  asOf: AS_OF,
  chain: chain(),
  rate: () => 0.045,
  dividendYield: 0,
  nextEarningsDate: null,
  ...o,
});

test("audit: long put K=130, 102 days, American: leg IV 30 %, delta −1, no vega", () => {
  assert.ok(Math.abs(years * 365 - 102) < 0.01);
  const req = { strategy: "long_put" as const, symbol: "ACME", expiry: EXPIRY, strikes: [130], quantity: 1 };
  const { output } = buildStrategyOutput(req, ctx({ exerciseStyle: "american" }));
  const leg = output.legs[0];
  assert.equal(leg.price, 30);
  assert.ok(leg.iv !== null && Math.abs(leg.iv - 0.3) <= 0.0005, `leg iv ${leg.iv}`);
  assert.equal(leg.delta, -1);
  assert.equal(output.greeks.vega, 0);
  // The same chain read as European: the numbers the audit rejected.
  const euro = buildStrategyOutput(req, ctx({})).output.legs[0];
  assert.ok(euro.iv !== null && euro.iv > 0.4, `european iv ${euro.iv}`);
  assert.ok(euro.delta > -0.9);
});

test("cash dividends: a research-output leg on a dividend payer reads the vol its chain was priced at", () => {
  // Two $1 dividends go ex before the expiry (00:00 New York of each ex-date); the chain is priced with them at 30 %.
  const dividends = [
    { symbol: "ACME", exDate: "2026-12-10", amount: 1 },
    { symbol: "ACME", exDate: "2027-02-10", amount: 1 },
  ];
  const cash = cashDividendsBefore(dividends, AS_OF, years);
  assert.equal(cash.length, 2);
  const quotes = chain().map((q) => {
    const mid = americanPrice({
      spot: 100,
      strike: q.strike,
      years,
      rate: 0.045,
      dividendYield: 0,
      vol: 0.3,
      right: q.right,
      cashDividends: cash,
    });
    return { ...q, bid: mid, ask: mid };
  });
  const req = { strategy: "long_call" as const, symbol: "ACME", expiry: EXPIRY, strikes: [105], quantity: 1 };
  const leg = buildStrategyOutput(req, ctx({ chain: quotes, exerciseStyle: "american", cashDividends: dividends }))
    .output.legs[0];
  assert.ok(leg.iv !== null && Math.abs(leg.iv - 0.3) <= 0.0005, `leg iv ${leg.iv}`);
  // Without the dividends the same mid reads a different vol.
  const without = buildStrategyOutput(req, ctx({ chain: quotes, exerciseStyle: "american" })).output.legs[0];
  assert.ok(without.iv !== null && Math.abs(without.iv - 0.3) > 0.005, `iv without dividends ${without.iv}`);
});
