import { test } from "node:test";
import assert from "node:assert/strict";
import {
  buildStrategyOutput,
  StrategyInputError,
  strategyRiskFlags,
  type StrategyContext,
} from "../../lib/analytics/strategy";
import type { StrategyRequestInput } from "../../lib/analytics/strategy-schema";
import type { OptionQuote } from "../../lib/analytics/types";

/*
 * Synthetic chain: spot 100, r = 0, q = 0, as-of Thursday 2026-11-19 21:00 UTC (16:00 EST, the close), expiry Friday 2027-11-19 (T = 365/365 = 1 year).
 * The 100 strike is priced at BSM with sigma = 20 %: C = P = 100 (2 N(0.1) - 1) = 7.96557 (Hull table N(0.10) = 0.5398),
 * quoted 7.9156 / 8.0156 (mid 7.9656), so the ATM IV is 0.20. Other strikes carry round mids, spread 0.10.
 */
const AS_OF = new Date("2026-11-19T21:00:00.000Z");
const EXP = "2027-11-19";
const MIDS: Record<string, number> = {
  C90: 15.0,
  C100: 7.9656,
  C105: 6.0,
  C110: 4.0,
  C115: 2.5,
  P85: 1.5,
  P95: 5.0,
  P100: 7.9656,
  P110: 10.5,
  P120: 20.02,
};
function quote(key: string, mid: number, o: Partial<OptionQuote> = {}): OptionQuote {
  return {
    symbol: "ACME",
    asOf: AS_OF,
    expiry: EXP,
    strike: Number(key.slice(1)),
    right: key[0] as "C" | "P",
    bid: mid - 0.05,
    ask: mid + 0.05,
    last: null,
    volume: 10,
    openInterest: 1000,
    ...o,
  };
}
const CHAIN = Object.entries(MIDS).map(([k, m]) => quote(k, m));
const ctx = (o: Partial<StrategyContext> = {}): StrategyContext => ({
  spot: 100,
  asOf: AS_OF,
  chain: CHAIN,
  rate: () => 0,
  dividendYield: 0,
  nextEarningsDate: null,
  ...o,
});
const close = (actual: number | null, expected: number, tol: number, what: string) =>
  assert.ok(
    actual !== null && Math.abs(actual - expected) <= tol,
    `${what}: ${actual} not within ${tol} of ${expected}`,
  );

test("bull call spread 105/115: debit 3.50, max profit = width - debit, max loss = debit, breakeven = low + debit", () => {
  const { output, riskFlags } = buildStrategyOutput(
    { symbol: "acme", strategy: "bull_call_spread", expiry: EXP, strikes: [105, 115] },
    ctx(),
  );
  assert.equal(output.symbol, "ACME");
  assert.deepEqual(
    output.legs.map((l) => [l.action, l.right, l.strike, l.quantity, l.price]),
    [
      ["buy", "call", 105, 1, 6],
      ["sell", "call", 115, 1, 2.5],
    ],
  );
  assert.equal(output.netPremium, 350); // (6.00 - 2.50) x 100
  assert.equal(output.netType, "debit");
  assert.equal(output.maxProfit, 650); // (10 - 3.50) x 100
  assert.equal(output.maxLoss, 350);
  assert.deepEqual(output.breakevens, [108.5]);
  // P(S_T > 108.5), d2 = (ln(100/108.5) - 0.02) / 0.2 = -0.5079 -> N = 0.3058
  close(output.probabilityOfProfit, 0.3058, 1e-4, "POP");
  assert.deepEqual(riskFlags, []);
  const triple = buildStrategyOutput(
    { symbol: "ACME", strategy: "bull_call_spread", expiry: EXP, strikes: [105, 115], quantity: 3 },
    ctx(),
  ).output;
  assert.deepEqual(
    [triple.netPremium, triple.maxProfit, triple.maxLoss, triple.legs[0].quantity],
    [1050, 1950, 1050, 3],
  );
});

test("iron condor 85/95/105/115: credit 7.00, max profit = credit, max loss = wing - credit, breakevens 88 and 112", () => {
  const { output } = buildStrategyOutput(
    { symbol: "ACME", strategy: "iron_condor", expiry: EXP, strikes: [85, 95, 105, 115] },
    ctx(),
  );
  assert.deepEqual(
    output.legs.map((l) => [l.action, l.right, l.strike, l.price]),
    [
      ["buy", "put", 85, 1.5],
      ["sell", "put", 95, 5],
      ["sell", "call", 105, 6],
      ["buy", "call", 115, 2.5],
    ],
  );
  assert.equal(output.netPremium, -700); // (1.50 - 5.00 - 6.00 + 2.50) x 100
  assert.equal(output.netType, "credit");
  assert.equal(output.maxProfit, 700);
  assert.equal(output.maxLoss, 300); // (10 - 7) x 100
  assert.deepEqual(output.breakevens, [88, 112]);
  // N(d2(88)) - N(d2(112)) = 0.7407 - 0.2881
  close(output.probabilityOfProfit, 0.4526, 1e-4, "POP");
});

test("straddle at 100: two breakevens at K -/+ total debit, unlimited profit", () => {
  const { output, riskFlags } = buildStrategyOutput(
    { symbol: "ACME", strategy: "straddle", expiry: EXP, strikes: [100] },
    ctx(),
  );
  assert.equal(output.netPremium, 1593.12); // 2 x 7.9656 x 100
  assert.deepEqual(output.breakevens, [84.0688, 115.9312]);
  assert.equal(output.maxProfit, null);
  assert.equal(output.maxLoss, 1593.12);
  close(output.probabilityOfProfit, 0.422, 1e-4, "POP"); // 1 - N(d2(84.0688)) + N(d2(115.9312))
  close(output.greeks.delta, 100 * (0.539828 - 0.460172), 2e-3, "delta"); // N(0.1) + (N(0.1) - 1), x 100
  assert.deepEqual(riskFlags, []);
});

test("long call at 100: unlimited profit, max loss = debit, POP = N(d2) at the breakeven, greeks vs hand BSM", () => {
  const { output } = buildStrategyOutput({ symbol: "ACME", strategy: "long_call", expiry: EXP, strikes: [100] }, ctx());
  assert.equal(output.maxProfit, null);
  assert.equal(output.maxLoss, 796.56);
  assert.deepEqual(output.breakevens, [107.9656]);
  // d2 = (ln(100 / 107.9656) - 0.2^2 / 2) / 0.2 = -0.48321; N(-0.48321) = 0.31447 (Hull table: 1 - 0.6855)
  close(output.probabilityOfProfit, 0.3145, 1e-4, "POP");
  close(output.legs[0].iv, 0.2, 1e-4, "iv");
  // d1 = 0.1: delta N(0.1) = 0.53983; phi(0.1) = 0.39695; gamma = phi / (S sigma) = 0.019848;
  // theta = -S phi sigma / 2 = -3.96953 per year; vega = S phi = 39.6953 per 1.00 vol
  close(output.legs[0].delta, 0.5398, 2e-4, "leg delta");
  close(output.greeks.delta, 53.983, 0.02, "delta");
  close(output.greeks.gamma, 1.9848, 1e-3, "gamma");
  close(output.greeks.theta, (-3.96953 / 365) * 100, 1e-3, "theta per day");
  close(output.greeks.vega, 39.6953, 5e-3, "vega per vol point");
  assert.deepEqual(output.expectedMove, { move: 20, movePct: 0.2, days: 365 }); // 100 x 0.20 x sqrt(365/365)
});

test("covered call 110: stock leg of 100 shares at spot, capped profit", () => {
  const { output } = buildStrategyOutput(
    { symbol: "ACME", strategy: "covered_call", expiry: EXP, strikes: [110], quantity: 2 },
    ctx(),
  );
  assert.deepEqual(output.legs.map((l) => [l.action, l.right, l.strike, l.quantity, l.price, l.iv, l.delta]).slice(1), [
    ["buy", "stock", null, 200, 100, null, 1],
  ]);
  assert.equal(output.netPremium, 19200); // 2 x (100 x 100 - 4.00 x 100)
  assert.equal(output.maxProfit, 2800); // 2 x (110 - 100 + 4) x 100
  assert.equal(output.maxLoss, 19200); // stock to 0: 2 x (100 - 4) x 100
  assert.deepEqual(output.breakevens, [96]);
  close(output.greeks.delta, 200 - 200 * output.legs[0].delta, 0.02, "delta");
});

test("bear put, bull put, bear call spreads and strangle: leg structure and payoff", () => {
  const run = (strategy: string, strikes: number[]) =>
    buildStrategyOutput({ symbol: "ACME", strategy: strategy as "strangle", expiry: EXP, strikes }, ctx()).output;
  const bearPut = run("bear_put_spread", [95, 110]); // buy P110 10.50, sell P95 5.00: debit 5.50
  assert.deepEqual(
    [bearPut.netPremium, bearPut.maxProfit, bearPut.maxLoss, bearPut.breakevens],
    [550, 950, 550, [104.5]],
  );
  const bullPut = run("bull_put_spread", [95, 110]); // sell P110, buy P95: credit 5.50
  assert.deepEqual(
    [bullPut.netPremium, bullPut.netType, bullPut.maxProfit, bullPut.maxLoss, bullPut.breakevens],
    [-550, "credit", 550, 950, [104.5]],
  );
  const bearCall = run("bear_call_spread", [105, 115]); // sell C105 6.00, buy C115 2.50: credit 3.50
  assert.deepEqual(
    [bearCall.netPremium, bearCall.maxProfit, bearCall.maxLoss, bearCall.breakevens],
    [-350, 350, 650, [108.5]],
  );
  const strangle = run("strangle", [95, 105]); // buy P95 5.00 + C105 6.00 = 11.00
  assert.deepEqual(
    [strangle.netPremium, strangle.maxProfit, strangle.maxLoss, strangle.breakevens],
    [1100, null, 1100, [84, 116]],
  );
});

function fieldOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof StrategyInputError, `expected StrategyInputError, got ${e}`);
    return e.field;
  }
  assert.fail("expected a StrategyInputError");
}

test("input errors name their field", () => {
  const req: StrategyRequestInput = { symbol: "ACME", strategy: "bull_call_spread", expiry: EXP, strikes: [105, 115] };
  const build =
    (o: Record<string, unknown>, c = ctx()) =>
    () =>
      buildStrategyOutput({ ...req, ...o } as never, c);
  assert.equal(fieldOf(build({ expiry: "2027-12-17" })), "expiry"); // not listed
  assert.equal(fieldOf(build({ expiry: "2027-02-30" })), "expiry"); // not a calendar date
  const later = ctx({ asOf: new Date("2027-11-19T21:00:01Z") });
  assert.equal(fieldOf(build({}, later)), "expiry"); // passed
  assert.equal(fieldOf(build({ strikes: [105, 111] })), "strikes[1]"); // not listed
  assert.equal(fieldOf(build({ strikes: [101, 115] })), "strikes[0]");
  assert.equal(fieldOf(build({ strikes: [85, 115] })), "strikes[0]"); // only a put at 85
  assert.equal(fieldOf(build({ strikes: [115, 105] })), "strikes[1]"); // order
  assert.equal(fieldOf(build({ strikes: [105] })), "strikes"); // count
  assert.equal(fieldOf(build({ strategy: "iron_condor", strikes: [85, 95, 105] })), "strikes");
  assert.equal(fieldOf(build({ quantity: 0 })), "quantity");
  assert.equal(fieldOf(build({ quantity: 1.5 })), "quantity");
  assert.equal(fieldOf(build({ quantity: 1001 })), "quantity");
  assert.equal(fieldOf(build({ strategy: "butterfly" })), "strategy");
  assert.equal(fieldOf(build({ symbol: "AC ME" })), "symbol");
  assert.equal(fieldOf(build({ legs: [] })), "legs"); // unknown key
  const e = (() => {
    try {
      build({ strikes: [105, 111] })();
    } catch (x) {
      return x as Error;
    }
  })();
  assert.match(e!.message, /strike 111 is not listed for expiry 2027-11-19/);
});

test("a leg without any volatility is refused (strikes[i]), never priced at zero vol", () => {
  // Every mid sits below its intrinsic value (calls 0.01 at K ≤ 100 with spot 100… and puts likewise): no vol solves anywhere.
  const dead = Object.keys(MIDS).map((k) => quote(k, 0.06));
  const deep = ctx({
    spot: 100,
    chain: dead.map((q) => ({ ...q, strike: q.right === "C" ? q.strike - 50 : q.strike + 50 })),
  });
  const req: StrategyRequestInput = { symbol: "ACME", strategy: "bull_call_spread", expiry: EXP, strikes: [55, 65] };
  const err = (() => {
    try {
      buildStrategyOutput(req, deep);
    } catch (x) {
      return x as Error;
    }
  })();
  assert.ok(err instanceof StrategyInputError, `expected a StrategyInputError, got ${err}`);
  assert.equal(err.field, "strikes[0]");
  assert.match(err.message, /no implied volatility/);
});

test("errors naming a missing expiry or strike list the nearest valid ones", () => {
  const req: StrategyRequestInput = { symbol: "ACME", strategy: "bull_call_spread", expiry: EXP, strikes: [105, 115] };
  const message = (o: Record<string, unknown>, c = ctx()) => {
    try {
      buildStrategyOutput({ ...req, ...o } as never, c);
    } catch (x) {
      return (x as Error).message;
    }
    return assert.fail("expected an error");
  };
  assert.equal(
    message({ strikes: [105, 111] }),
    "strike 111 is not listed for expiry 2027-11-19; nearest listed calls: 105, 110, 115",
  );
  assert.equal(
    message({ strategy: "long_put", strikes: [101] }),
    "strike 101 is not listed for expiry 2027-11-19; nearest listed puts: 95, 100, 110",
  );
  assert.equal(
    message({ strikes: [85, 115] }),
    "no call is listed at strike 85 for expiry 2027-11-19; nearest listed calls: 90, 100, 105",
  );
  const twoExpiries = ctx({
    chain: [...CHAIN, quote("C100", 9, { expiry: "2027-12-17" }), quote("C100", 3, { expiry: "2026-12-18" })],
  });
  assert.equal(
    message({ expiry: "2027-12-10" }, twoExpiries),
    "expiry 2027-12-10 is not listed for ACME; nearest listed: 2026-12-18, 2027-11-19, 2027-12-17",
  );
  assert.equal(
    message({}, ctx({ asOf: new Date("2027-11-21T00:00:00Z") })),
    "expiry 2027-11-19 has passed; the symbol has no open expiries",
  );
});

test("risk flags: earnings, wide spread, thin open interest, short dated", () => {
  const req: StrategyRequestInput = { symbol: "ACME", strategy: "bull_call_spread", expiry: EXP, strikes: [105, 115] };
  const codes = (c: StrategyContext) => buildStrategyOutput(req, c).riskFlags.map((f) => [f.code, f.severity]);
  assert.deepEqual(codes(ctx({ nextEarningsDate: "2027-01-28" })), [["earnings_before_expiry", "warning"]]);
  assert.deepEqual(codes(ctx({ nextEarningsDate: "2027-11-19" })), [["earnings_before_expiry", "warning"]]);
  assert.deepEqual(codes(ctx({ nextEarningsDate: "2027-11-20" })), []);
  const patched = (key: string, o: Partial<OptionQuote>) =>
    CHAIN.map((q) => (`${q.right}${q.strike}` === key ? { ...q, ...o } : q));
  // C115 quoted 2.30 / 2.70: (0.40) / 2.50 = 16 % > 10 %
  const wide = buildStrategyOutput(req, ctx({ chain: patched("C115", { bid: 2.3, ask: 2.7 }) })).riskFlags;
  assert.deepEqual(wide, [
    { code: "wide_spread", severity: "warning", message: "Bid-ask spread above 10 % of mid on: sell call 115." },
  ]);
  assert.deepEqual(codes(ctx({ chain: patched("C105", { openInterest: 99 }) })), [["thin_open_interest", "warning"]]);
  assert.deepEqual(codes(ctx({ chain: patched("C105", { openInterest: 100 }) })), []);
  const near = "2026-11-24"; // 5 days from the as-of time
  const shortChain = [quote("C105", 0.5, { expiry: near }), quote("C115", 0.1, { expiry: near, bid: 0.08, ask: 0.12 })];
  const sd = buildStrategyOutput({ ...req, expiry: near }, ctx({ chain: shortChain })).riskFlags.map((f) => f.code);
  assert.deepEqual(sd, ["wide_spread", "short_dated"]);
});

test("risk flags: early assignment on a short ITM call before a dividend, and on a deep ITM short put", () => {
  // Covered call at 90: mid 15.00, intrinsic 10, extrinsic 5.00. Dividend to expiry S (1 - e^{-qT}):
  // q = 6 % -> 5.82 > 5.00 -> flagged; q = 3 % -> 2.96 < 5.00 -> not flagged.
  const cc: StrategyRequestInput = { symbol: "ACME", strategy: "covered_call", expiry: EXP, strikes: [90] };
  const flagged = buildStrategyOutput(cc, ctx({ dividendYield: 0.06 })).riskFlags;
  assert.deepEqual(
    flagged.map((f) => [f.code, f.severity]),
    [["early_assignment_risk", "high"]],
  );
  assert.match(flagged[0].message, /sell call 90/);
  assert.deepEqual(buildStrategyOutput(cc, ctx({ dividendYield: 0.03 })).riskFlags, []);
  // Bull put 110/120: short P120 mid 20.02, intrinsic 20 (>= 5 % of spot), extrinsic 0.02 < 0.05
  const bp = buildStrategyOutput(
    { symbol: "ACME", strategy: "bull_put_spread", expiry: EXP, strikes: [110, 120] },
    ctx(),
  );
  assert.deepEqual(
    bp.riskFlags.map((f) => f.code),
    ["early_assignment_risk"],
  );
  assert.match(bp.riskFlags[0].message, /sell put 120/);
});

test("risk flag undefined_risk when the max loss is unlimited (no listed strategy has one; checked directly)", () => {
  const flags = strategyRiskFlags([], { ...ctx(), years: 1, expiry: EXP, unlimitedLoss: true });
  assert.deepEqual(flags, [{ code: "undefined_risk", severity: "high", message: "The maximum loss is unlimited." }]);
  assert.deepEqual(strategyRiskFlags([], { ...ctx(), years: 1, expiry: EXP, unlimitedLoss: false }), []);
});
