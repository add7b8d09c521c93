import { test } from "node:test";
import assert from "node:assert/strict";
import { bsmGreeks, bsmPrice, normCdf } from "../../lib/analytics/bsm";

const close = (actual: number, expected: number, tol: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} not within ${tol} of ${expected}`);

test("normal CDF matches standard tables", () => {
  close(normCdf(0), 0.5, 1e-15, "N(0)");
  close(normCdf(1.96), 0.9750021048517795, 1e-12, "N(1.96)");
  close(normCdf(-1), 0.15865525393145707, 1e-12, "N(-1)");
  close(normCdf(-6), 9.865876450376946e-10, 1e-20, "N(-6)");
});

test("Hull Example 15.6, 9th ed. (S=42, K=40, r=10%, sigma=20%, T=0.5): call 4.76, put 0.81", () => {
  const base = { spot: 42, strike: 40, years: 0.5, rate: 0.1, dividendYield: 0, vol: 0.2 } as const;
  close(bsmPrice({ ...base, right: "C" }), 4.76, 0.005, "call");
  close(bsmPrice({ ...base, right: "P" }), 0.81, 0.005, "put");
});

test("Hull Example 19.1 greeks (S=49, K=50, r=5%, sigma=20%, T=20 weeks)", () => {
  const g = bsmGreeks({ spot: 49, strike: 50, years: 0.3846, rate: 0.05, dividendYield: 0, vol: 0.2, right: "C" });
  close(g.price, 2.4, 0.005, "price");
  close(g.delta, 0.522, 0.0005, "delta");
  close(g.gamma, 0.066, 0.0005, "gamma");
  close(g.vega, 12.1, 0.05, "vega");
  close(g.theta, -4.31, 0.005, "theta");
  close(g.rho, 8.91, 0.005, "rho");
});

test("put-call parity with a dividend yield: C - P = S e^{-qT} - K e^{-rT}", () => {
  const base = { spot: 100, strike: 95, years: 0.75, rate: 0.04, dividendYield: 0.03, vol: 0.35 } as const;
  const lhs = bsmPrice({ ...base, right: "C" }) - bsmPrice({ ...base, right: "P" });
  const rhs = 100 * Math.exp(-0.03 * 0.75) - 95 * Math.exp(-0.04 * 0.75);
  close(lhs, rhs, 1e-10, "parity");
});

test("expired or zero-vol options are worth their discounted intrinsic value", () => {
  assert.equal(bsmPrice({ spot: 110, strike: 100, years: 0, rate: 0.05, dividendYield: 0, vol: 0.3, right: "C" }), 10);
  assert.equal(bsmPrice({ spot: 90, strike: 100, years: 0, rate: 0.05, dividendYield: 0, vol: 0.3, right: "C" }), 0);
});

test("greeks at zero vol decide moneyness on the forward: S=100, K=101, r=5 %, T=1 → delta 1, theta −4.80, rho 96.07", () => {
  const g = bsmGreeks({ spot: 100, strike: 101, years: 1, rate: 0.05, dividendYield: 0, vol: 0, right: "C" });
  assert.equal(g.delta, 1);
  assert.ok(
    Math.abs(g.theta - -0.05 * 101 * Math.exp(-0.05)) < 1e-12 && Math.abs(g.theta - -4.8037) < 1e-4,
    `theta ${g.theta}`,
  );
  assert.ok(Math.abs(g.rho - 101 * Math.exp(-0.05)) < 1e-12 && Math.abs(g.rho - 96.0742) < 1e-4, `rho ${g.rho}`);
  assert.ok(Math.abs(g.price - (100 - 101 * Math.exp(-0.05))) < 1e-12);
  // The put is out of the money on the forward: every greek is 0.
  const p = bsmGreeks({ spot: 100, strike: 101, years: 1, rate: 0.05, dividendYield: 0, vol: 0, right: "P" });
  assert.deepEqual([p.delta, p.theta, p.rho, p.price], [0, 0, 0, 0]);
});

test("greeks at zero vol keep the dividend discount: q = 3 % gives delta e^(−0.03) = 0.9704, not 1", () => {
  const g = bsmGreeks({ spot: 100, strike: 101, years: 1, rate: 0.05, dividendYield: 0.03, vol: 0, right: "C" });
  assert.ok(Math.abs(g.delta - Math.exp(-0.03)) < 1e-15 && Math.abs(g.delta - 0.9704) < 1e-4, `delta ${g.delta}`);
  // The zero-vol limit agrees with a tiny vol.
  const tiny = bsmGreeks({ spot: 100, strike: 101, years: 1, rate: 0.05, dividendYield: 0.03, vol: 1e-6, right: "C" });
  for (const k of ["delta", "theta", "rho", "price"] as const)
    assert.ok(Math.abs(g[k] - tiny[k]) < 1e-6, `${k}: ${g[k]} vs ${tiny[k]}`);
});

test("past expiry (T < 0) an S=110, K=100 call is worth its intrinsic 10, not a re-discounted 7.47", () => {
  const i = { spot: 110, strike: 100, years: -0.5, rate: 0.05, dividendYield: 0, vol: 0.3, right: "C" as const };
  assert.equal(bsmPrice(i), 10);
  const g = bsmGreeks(i);
  assert.deepEqual([g.price, g.delta, g.gamma, g.vega, g.theta, g.rho], [10, 1, 0, 0, 0, 0]);
  assert.equal(bsmPrice({ ...i, right: "P", strike: 120 }), 10);
});
