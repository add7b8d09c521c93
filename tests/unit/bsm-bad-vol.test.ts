/** bsmGreeks (and americanGreeks) with a NaN or negative vol answer NaN, never the zero-vol limit. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { bsmGreeks } from "../../lib/analytics/bsm";
import { americanGreeks } from "../../lib/analytics/american";

test("NaN or negative vol: every greek is NaN", () => {
  const base = { spot: 100, strike: 90, years: 0.5, rate: 0.04, dividendYield: 0.01, right: "P" as const };
  for (const vol of [Number.NaN, -0.2]) {
    for (const g of [bsmGreeks({ ...base, vol }), americanGreeks({ ...base, vol })]) {
      for (const v of Object.values(g)) assert.ok(Number.isNaN(v), `vol ${vol}: ${JSON.stringify(g)}`);
    }
  }
  assert.ok(Number.isFinite(bsmGreeks({ ...base, vol: 0 }).price), "zero vol is still the zero-vol limit");
});

test("a NaN or negative vol prices as NaN everywhere (bsmPrice, americanPrice, greeks), never as zero vol", async () => {
  const { bsmPrice, bsmGreeks } = await import("../../lib/analytics/bsm");
  const { americanPrice, americanGreeks } = await import("../../lib/analytics/american");
  for (const vol of [Number.NaN, -0.2])
    for (const right of ["C", "P"] as const) {
      const i = { spot: 100, strike: 95, years: 0.5, rate: 0.045, dividendYield: 0.02, vol, right };
      assert.ok(Number.isNaN(bsmPrice(i)));
      assert.ok(Number.isNaN(americanPrice(i)));
      assert.ok(Number.isNaN(bsmGreeks(i).price) && Number.isNaN(americanGreeks(i).delta));
    }
});
