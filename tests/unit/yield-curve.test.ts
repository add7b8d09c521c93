import { test } from "node:test";
import assert from "node:assert/strict";
import { buildYieldCurve, classifyShape, definitions, riskFreeRate, yieldAt } from "../../lib/analytics/yield-curve";
import type { TreasuryYield } from "../../lib/analytics/types";

const close = (actual: number, expected: number, tol: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} not within ${tol} of ${expected}`);

// A small published-looking curve: two dates, unordered rows, a blank 5Y on the newest date, a stray bad row.
const rows: TreasuryYield[] = [
  { date: "2024-05-01", tenor: "2Y", yieldPct: 4.9 },
  { date: "2024-05-02", tenor: "10Y", yieldPct: 4.2 },
  { date: "2024-04-30", tenor: "10Y", yieldPct: 4.7 },
  { date: "2024-05-02", tenor: "2Y", yieldPct: 4.6 },
  { date: "2024-05-02", tenor: "5Y", yieldPct: Number.NaN }, // blank in the source file
  { date: "2024-05-01", tenor: "10Y", yieldPct: 4.6 },
  { date: "2024-05-02", tenor: "3M", yieldPct: 5.0 },
];

test("newest date wins whatever the row order; blank tenors are omitted; points in tenor order", () => {
  const c = buildYieldCurve(rows)!;
  assert.equal(c.date, "2024-05-02");
  assert.deepEqual(c.curve, [
    { tenor: "3M", years: 0.25, yieldPct: 5.0, date: "2024-05-02" },
    { tenor: "2Y", years: 2, yieldPct: 4.6, date: "2024-05-02" },
    { tenor: "10Y", years: 10, yieldPct: 4.2, date: "2024-05-02" },
  ]);
  assert.equal(c.oldestDate, "2024-05-02");
  assert.equal(c.interpolation, "linear");
  // same rows reversed → byte-identical output
  assert.equal(JSON.stringify(buildYieldCurve([...rows].reverse())), JSON.stringify(c));
});

test("2Y 4.60, 10Y 4.20 → 10y2y −40.0 bp inverted; 3M 5.00 → 10y3m −80.0 bp inverted; shape inverted", () => {
  const c = buildYieldCurve(rows)!;
  // (4.20 − 4.60) × 100 = −40.0 bp; (4.20 − 5.00) × 100 = −80.0 bp (float noise −40.00000000000001 rounded away)
  assert.equal(c.spread10y2y, -40);
  assert.equal(c.spread10y3m, -80);
  assert.deepEqual(c.inversion, { "10y2y": true, "10y3m": true });
  // ends 3M 5.00 → 10Y 4.20: slope −80 bp; interior 2Y 4.60 is below the higher end → no hump → inverted
  assert.equal(c.shape, "inverted");
});

test("normal curve: positive spreads, not inverted; missing 2Y gives a null spread and a false flag", () => {
  const c = buildYieldCurve([
    { date: "2021-06-01", tenor: "3M", yieldPct: 0.05 },
    { date: "2021-06-01", tenor: "10Y", yieldPct: 1.6 },
  ])!;
  assert.equal(c.spread10y2y, null);
  assert.equal(c.spread10y3m, 155); // (1.60 − 0.05) × 100
  assert.deepEqual(c.inversion, { "10y2y": false, "10y3m": false });
  assert.equal(c.shape, "normal");
});

test("spread rounding to 0.1 bp; a zero spread is not an inversion", () => {
  const c = buildYieldCurve([
    { date: "2024-01-02", tenor: "2Y", yieldPct: 4.333 },
    { date: "2024-01-02", tenor: "10Y", yieldPct: 4.3 },
    { date: "2024-01-02", tenor: "3M", yieldPct: 4.3 },
  ])!;
  assert.equal(c.spread10y2y, -3.3); // (4.300 − 4.333) × 100 = −3.3 bp
  assert.equal(c.spread10y3m, 0);
  assert.deepEqual(c.inversion, { "10y2y": true, "10y3m": false });
});

test("no rows, or only blank yields → null; duplicate (date, tenor): last row wins", () => {
  assert.equal(buildYieldCurve([]), null);
  assert.equal(buildYieldCurve([{ date: "2024-05-02", tenor: "2Y", yieldPct: Number.NaN }]), null);
  const c = buildYieldCurve([
    { date: "2024-05-02", tenor: "2Y", yieldPct: 4.5 },
    { date: "2024-05-02", tenor: "2Y", yieldPct: 4.6 },
  ])!;
  assert.deepEqual(c.curve, [{ tenor: "2Y", years: 2, yieldPct: 4.6, date: "2024-05-02" }]);
  assert.equal(c.shape, "flat"); // a single point is flat
});

test("shape rules: flat band inclusive at 25 bp, humped when the hump dominates the tilt", () => {
  const p = (years: number, yieldPct: number) => ({ years, yieldPct });
  assert.equal(classifyShape([p(0.25, 4.0), p(10, 4.25)]), "flat"); // slope +25.0 bp ≤ 25
  assert.equal(classifyShape([p(0.25, 4.0), p(10, 4.26)]), "normal"); // +26.0 bp
  assert.equal(classifyShape([p(0.25, 4.26), p(10, 4.0)]), "inverted"); // −26.0 bp
  // 3M 4.00, 2Y 4.60, 10Y 4.10: slope +10 bp; hump 4.60 − 4.10 = 50 bp > 10 and ≥ |10| → humped
  assert.equal(classifyShape([p(0.25, 4.0), p(2, 4.6), p(10, 4.1)]), "humped");
  // mid-2023 style: 1M 5.28, 6M 5.53, 2Y 4.87, 10Y 3.86, 30Y 3.92: slope −136 bp, hump 5.53 − 5.28 = 25 bp < 136 → inverted
  assert.equal(classifyShape([p(1 / 12, 5.28), p(0.5, 5.53), p(2, 4.87), p(10, 3.86), p(30, 3.92)]), "inverted");
  // hump of exactly 10 bp is not > 10 → falls back to slope: 1M 1.00, 20Y 2.50, 30Y 2.40 → +140 bp normal
  assert.equal(classifyShape([p(1 / 12, 1.0), p(20, 2.5), p(30, 2.4)]), "normal");
});

test("yieldAt is linear in years with flat extrapolation", () => {
  const c = buildYieldCurve(rows)!.curve;
  // 6y between 2Y 4.60 and 10Y 4.20: 4.60 + (6 − 2)/(10 − 2) × (4.20 − 4.60) = 4.60 − 0.20 = 4.40
  close(yieldAt(c, 6), 4.4, 1e-12, "6y");
  // 1y between 3M 5.00 and 2Y 4.60: 5.00 + (1 − 0.25)/(2 − 0.25) × (−0.40) = 5.00 − 0.171428… = 4.828571…
  close(yieldAt(c, 1), 4.828571428571429, 1e-12, "1y");
  assert.equal(yieldAt(c, 2), 4.6); // on a knot
  assert.equal(yieldAt(c, 0.01), 5.0); // before the first tenor: flat
  assert.equal(yieldAt(c, 30), 4.2); // after the last tenor: flat
  assert.equal(yieldAt([...c].reverse(), 6), yieldAt(c, 6)); // input order does not matter
  assert.throws(() => yieldAt([], 1), RangeError);
  assert.throws(() => yieldAt(c, Number.NaN), RangeError);
});

test("par yields used as semi-annual bond-equivalent: riskFreeRate is the continuous rate 2·ln(1 + y/200)", () => {
  const r = riskFreeRate(buildYieldCurve(rows)!.curve);
  // 2·ln(1.021): ln(1.021) = 0.021 − 0.0002205 + 0.000003087 − 0.0000000486 + … = 0.0207825382 → 0.0415650764
  close(r(10), 0.0415650784, 1e-9, "r(10y)");
  close(r(10), 2 * Math.log(1 + 4.2 / 200), 1e-15, "r(10y) formula");
  // 2·ln(1.025) = 0.0493852249…
  close(r(0.1), 0.0493852249, 1e-9, "r(0.1y) flat at 3M 5.00");
  // 6y: y = 4.4, 2·ln(1.022) = 0.0435229…
  close(r(6), 2 * Math.log(1.022), 1e-15, "r(6y)");
  // The annual reading ln(1 + y/100) would understate the 10y rate by about 4 bp.
  assert.ok(r(10) - Math.log(1.042) > 4e-4);
});

test("a partial newest day does not hide the curve: each tenor's newest yield within 7 days, as-of labelled", () => {
  const full = ["1M", "3M", "2Y", "10Y", "30Y"].map(
    (tenor, i) => ({ date: "2024-05-01", tenor, yieldPct: 5.3 - 0.3 * i }) as TreasuryYield,
  );
  const c = buildYieldCurve([...full, { date: "2024-05-02", tenor: "1M", yieldPct: 5.35 }])!;
  assert.equal(c.date, "2024-05-02");
  assert.equal(c.oldestDate, "2024-05-01");
  assert.deepEqual(
    c.curve.map((p) => [p.tenor, p.yieldPct, p.date]),
    [
      ["1M", 5.35, "2024-05-02"],
      ["3M", 5.0, "2024-05-01"],
      ["2Y", 4.7, "2024-05-01"],
      ["10Y", 4.4, "2024-05-01"],
      ["30Y", 4.1, "2024-05-01"],
    ],
  );
  assert.equal(c.spread10y2y, -30);
  assert.equal(c.shape, "inverted");
  // The one new rate does not price every maturity.
  close(riskFreeRate(c.curve)(10), 2 * Math.log1p(4.4 / 200), 1e-15, "10y from the full day");
  // A stray row more than 7 days newer than the rest is not a curve: the curve stays on the full day.
  const stray = buildYieldCurve([...full, { date: "2024-05-09", tenor: "1M", yieldPct: 5.35 }])!;
  assert.equal(stray.date, "2024-05-01");
  assert.deepEqual(
    stray.curve.map((p) => p.tenor),
    ["1M", "3M", "2Y", "10Y", "30Y"],
  );
  assert.equal(
    buildYieldCurve([...full, { date: "2024-05-08", tenor: "1M", yieldPct: 5.35 }])!.curve.length,
    5,
    "7 days back is inside",
  );
});

test("definitions document every output field", () => {
  for (const k of [
    "date",
    "oldestDate",
    "curve",
    "interpolation",
    "inversion",
    "spread10y2y",
    "spread10y3m",
    "shape",
  ]) {
    assert.equal(typeof definitions[k], "string", k);
  }
});
