import { test } from "node:test";
import assert from "node:assert/strict";
import {
  analyzePayoff,
  breakevens,
  payoffAt,
  probAbove,
  probabilityOfProfit,
  type PayoffLeg,
} from "../../lib/analytics/strategy-payoff";
import { fieldOf, legTemplates, parseStrategyRequest, StrategyInputError } from "../../lib/analytics/strategy-schema";

const close = (actual: number, expected: number, tol: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} not within ${tol} of ${expected}`);

test("P(S_T > K) = N(d2): Hull Example 15.6 (S=42, K=40, r=10%, sigma=20%, T=0.5): d2 = 0.6278, N(d2) = 0.7349", () => {
  close(probAbove(40, { spot: 42, years: 0.5, rate: 0.1, dividendYield: 0, vol: 0.2 }), 0.7349, 5e-5, "N(d2)");
  assert.equal(probAbove(0, { spot: 42, years: 0.5, rate: 0.1, dividendYield: 0, vol: 0.2 }), 1);
  assert.equal(probAbove(Infinity, { spot: 42, years: 0.5, rate: 0.1, dividendYield: 0, vol: 0.2 }), 0);
  // zero vol: S_T is the forward 42 e^{0.05} = 44.15
  assert.equal(probAbove(44, { spot: 42, years: 0.5, rate: 0.1, dividendYield: 0, vol: 0 }), 1);
  assert.equal(probAbove(44.2, { spot: 42, years: 0.5, rate: 0.1, dividendYield: 0, vol: 0 }), 0);
});

test("naked short call: max loss unlimited (slope -100 above the strike), breakeven K + premium", () => {
  const legs: PayoffLeg[] = [{ kind: "C", strike: 100, units: -100, price: 5 }];
  assert.equal(payoffAt(legs, 90), 500);
  assert.equal(payoffAt(legs, 120), -1500);
  assert.deepEqual(analyzePayoff(legs), { maxProfit: 500, maxLoss: null, breakevens: [105] });
});

test("long put: profit below the breakeven; POP = 1 - N(d2(B)) (Hull 15.6 inputs, K=40 put bought at 0.81)", () => {
  const legs: PayoffLeg[] = [{ kind: "P", strike: 40, units: 100, price: 0.81 }];
  assert.deepEqual(analyzePayoff(legs), { maxProfit: 3919, maxLoss: 81, breakevens: [39.19] });
  const p = { spot: 42, years: 0.5, rate: 0.1, dividendYield: 0, vol: 0.2 };
  // d2(39.19) = (ln(42/39.19) + (0.1 - 0.02) 0.5) / (0.2 sqrt 0.5) = (0.069248 + 0.04) / 0.141421 = 0.77250; 1 - N = 0.21991
  close(probabilityOfProfit(legs, p), 0.21991, 2e-5, "POP");
});

test("breakevens: a P&L touching zero at a kink is reported once; no breakeven when always losing", () => {
  // long 100 call at 0 cost plus short 100 put at 0 cost = synthetic forward: zero at 100 exactly
  const fwd: PayoffLeg[] = [
    { kind: "C", strike: 100, units: 100, price: 0 },
    { kind: "P", strike: 100, units: -100, price: 0 },
  ];
  assert.deepEqual(breakevens(fwd), [100]);
  const spread: PayoffLeg[] = [
    { kind: "C", strike: 100, units: 100, price: 6 },
    { kind: "C", strike: 105, units: -100, price: 0.5 },
  ];
  assert.deepEqual(breakevens(spread), []); // debit 5.50 > width 5
  assert.equal(probabilityOfProfit(spread, { spot: 100, years: 1, rate: 0, dividendYield: 0, vol: 0.2 }), 0);
});

test("schema: default quantity, strict keys, field names, leg templates", () => {
  const req = parseStrategyRequest({ symbol: "brk.b", strategy: "strangle", expiry: "2027-01-15", strikes: [95, 105] });
  assert.equal(req.quantity, 1);
  assert.deepEqual(
    legTemplates("strangle", req.strikes).map((l) => `${l.action} ${l.right} ${l.strike}`),
    ["buy P 95", "buy C 105"],
  );
  assert.deepEqual(
    legTemplates("bear_put_spread", [95, 105]).map((l) => `${l.action} ${l.right} ${l.strike}`),
    ["sell P 95", "buy P 105"],
  );
  assert.equal(fieldOf(["strikes", 2]), "strikes[2]");
  assert.equal(fieldOf([]), "body");
  assert.throws(
    () => parseStrategyRequest({ ...req, extra: 1 }),
    (e: unknown) => e instanceof StrategyInputError && e.field === "extra",
  );
  assert.throws(
    () => parseStrategyRequest({ ...req, strikes: [95, "x"] }),
    (e: unknown) => e instanceof StrategyInputError && e.field === "strikes[1]",
  );
  assert.throws(
    () => parseStrategyRequest(null),
    (e: unknown) => e instanceof StrategyInputError && e.field === "body",
  );
});
