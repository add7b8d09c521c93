import { test } from "node:test";
import assert from "node:assert/strict";
import { bsmPrice } from "../../lib/analytics/bsm";
import type { OptionRight } from "../../lib/analytics/bsm";
import { impliedVol } from "../../lib/analytics/iv";

const close = (actual: number, expected: number, tol: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} not within ${tol} of ${expected}`);

test("Hull §15.11 (9th ed.): call 1.875 with S=21, K=20, r=10%, T=0.25 has implied vol 0.235", () => {
  const input = { spot: 21, strike: 20, years: 0.25, rate: 0.1, dividendYield: 0, right: "C" } as const;
  const iv = impliedVol(1.875, input);
  assert.ok(iv !== null);
  close(iv, 0.235, 0.0005, "Hull IV");
  close(bsmPrice({ ...input, vol: iv }), 1.875, 1e-8, "repriced");
  // Pinned to more digits than Hull prints (independently: bisection on bsmPrice to 1e-12).
  close(iv, 0.234513, 1e-6, "IV to 6 digits");
});

test("round-trips sigma across moneyness, expiries, vols, both rights and dividend yields", () => {
  let checked = 0;
  for (const strike of [40, 70, 90, 100, 110, 130, 160, 250])
    for (const years of [2 / 365, 7 / 365, 0.25, 1, 3])
      for (const vol of [0.05, 0.2, 0.6, 1.5, 4])
        for (const right of ["C", "P"] as OptionRight[])
          for (const dividendYield of [0, 0.03]) {
            const input = { spot: 100, strike, years, rate: 0.05, dividendYield, right };
            const timeValue = Math.min(
              bsmPrice({ ...input, vol, right: "C" }),
              bsmPrice({ ...input, vol, right: "P" }),
            );
            // Below ~1e-6 of spot the time value drowns in the rounding of the intrinsic value: vol is not identifiable.
            if (timeValue < 1e-6 * 100) continue;
            const price = bsmPrice({ ...input, vol });
            const iv = impliedVol(price, input);
            const what = `K=${strike} T=${years.toFixed(4)} vol=${vol} ${right} q=${dividendYield}`;
            assert.ok(iv !== null, `${what}: null`);
            close(iv, vol, 1e-6, what);
            close(bsmPrice({ ...input, vol: iv }), price, 1e-8, `${what} repriced`);
            checked++;
          }
  assert.ok(checked > 550, `only ${checked} cases checked`);
});

test("deep out-of-the-money options round-trip where the price identifies the vol, and are null where it does not", () => {
  const cases = [
    { spot: 100, strike: 160, years: 0.25, vol: 0.2, right: "C" as const, known: false }, // price ~4.7e-6, vega ~5e-4
    { spot: 100, strike: 55, years: 0.1, vol: 0.3, right: "P" as const, known: false }, // price ~1.3e-10
    { spot: 100, strike: 300, years: 1, vol: 0.35, right: "C" as const, known: true }, // price ~0.018, vega ~0.9
  ];
  for (const c of cases) {
    const input = { spot: c.spot, strike: c.strike, years: c.years, rate: 0.04, dividendYield: 0.01, right: c.right };
    const price = bsmPrice({ ...input, vol: c.vol });
    assert.ok(price > 0 && price < 0.02, `test setup: ${price}`);
    const iv = impliedVol(price, input);
    if (!c.known) {
      assert.equal(iv, null, `K=${c.strike} ${c.right}`);
      continue;
    }
    assert.ok(iv !== null);
    close(iv, c.vol, 1e-7, `K=${c.strike} ${c.right}`);
  }
});

test("in-the-money put and its call twin give the same vol (put-call parity, Hull §11.4)", () => {
  const input = { spot: 95, strike: 110, years: 0.5, rate: 0.045, dividendYield: 0.02 };
  const put = bsmPrice({ ...input, vol: 0.33, right: "P" });
  const call = bsmPrice({ ...input, vol: 0.33, right: "C" });
  close(impliedVol(put, { ...input, right: "P" })!, 0.33, 1e-9, "ITM put");
  close(impliedVol(call, { ...input, right: "C" })!, 0.33, 1e-9, "OTM call");
});

test("null outside the no-arbitrage bounds, for non-finite input and beyond the [1e-4, 5] vol range", () => {
  const call = { spot: 100, strike: 90, years: 0.5, rate: 0.05, dividendYield: 0, right: "C" } as const;
  const intrinsic = 100 - 90 * Math.exp(-0.05 * 0.5); // discounted intrinsic, the lower bound: 12.2221...
  assert.equal(impliedVol(intrinsic - 0.01, call), null, "below lower bound");
  assert.equal(impliedVol(intrinsic, call), null, "at lower bound (zero vol)");
  assert.equal(impliedVol(100, call), null, "at upper bound S");
  assert.equal(impliedVol(101, call), null, "above upper bound");
  const put = { ...call, right: "P" } as const;
  assert.equal(impliedVol(90 * Math.exp(-0.025) + 0.01, put), null, "put above K e^{-rT}");
  assert.equal(impliedVol(0, put), null, "zero price");
  assert.equal(impliedVol(-1, put), null, "negative price");
  assert.equal(impliedVol(Number.NaN, call), null, "NaN");
  assert.equal(impliedVol(Number.POSITIVE_INFINITY, call), null, "Infinity");
  assert.equal(impliedVol(5, { ...call, years: 0 }), null, "expired");
  assert.equal(impliedVol(bsmPrice({ ...call, vol: 6 }), call), null, "vol 6 is above the search range");
  assert.ok(impliedVol(bsmPrice({ ...call, vol: 4.9 }), call) !== null, "vol 4.9 is inside it");
});
