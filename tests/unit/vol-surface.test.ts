import { test } from "node:test";
import assert from "node:assert/strict";
import { bsmGreeks, bsmPrice, normCdf } from "../../lib/analytics/bsm";
import type { OptionRight } from "../../lib/analytics/bsm";
import { atmIvHistory } from "../../lib/analytics/iv-history";
import type { OptionQuote } from "../../lib/analytics/types";
import {
  atmIvForExpiry,
  constantMaturityAtmIv,
  impliedVolSmile,
  ivAtCallDelta,
  skew25Delta,
  termSlope,
  yearFraction,
} from "../../lib/analytics/vol-surface";
import type { ExpirySmile } from "../../lib/analytics/vol-surface";

const close = (actual: number | null | undefined, expected: number, tol: number, what: string) =>
  assert.ok(
    actual != null && Math.abs(actual - expected) <= tol,
    `${what}: ${actual} not within ${tol} of ${expected}`,
  );

// 21:00 UTC = 16:00 New York in winter, the expiry close, so a trading-day expiry N calendar days ahead (before the
// March DST switch) is exactly N/365 years away.
const AS_OF = new Date("2026-01-05T21:00:00Z");
const rateFn = (years: number) => 0.03 + 0.01 * years; // an upward-sloping curve, to exercise rate(T)
const Q = 0.01;
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000).toISOString().slice(0, 10);
const range = (lo: number, hi: number, step: number) =>
  Array.from({ length: Math.round((hi - lo) / step) + 1 }, (_, i) => lo + i * step);

/**
 * Both rights at every strike, priced with bsmPrice at volFn(strike, right), quoted one cent either side of the model
 * price.
 */
function syntheticChain(
  spot: number,
  asOf: Date,
  days: number[],
  strikes: number[],
  volFn: (k: number, r: OptionRight, d: number) => number,
): OptionQuote[] {
  return days.flatMap((d) =>
    strikes.flatMap((strike) =>
      (["C", "P"] as OptionRight[]).map((right) => {
        const expiry = addDays(asOf, d);
        const years = yearFraction(asOf, expiry); // the exchange's own clock: weekend/holiday expiries roll back
        const price = bsmPrice({
          spot,
          strike,
          years,
          rate: rateFn(years),
          dividendYield: Q,
          vol: volFn(strike, right, d),
          right,
        });
        return {
          symbol: "TEST",
          asOf,
          expiry,
          strike,
          right,
          bid: price - 0.01,
          ask: price + 0.01,
          last: null,
          volume: 10,
          openInterest: 100,
        };
      }),
    ),
  );
}

test("yearFraction is ACT/365 to 16:00 New York on the expiry date (21:00 UTC in winter, 20:00 UTC in summer)", () => {
  close(yearFraction(AS_OF, "2026-02-04"), 30 / 365, 1e-15, "30 days");
  close(
    yearFraction(new Date("2026-01-05T14:30:00Z"), "2026-01-05"),
    6.5 / (365 * 24),
    1e-15,
    "same day, 9:30 EST open",
  );
  close(
    yearFraction(new Date("2026-07-06T13:30:00Z"), "2026-07-06"),
    6.5 / (365 * 24),
    1e-15,
    "same day, 9:30 EDT open",
  );
  assert.ok(yearFraction(new Date("2026-07-06T20:00:01Z"), "2026-07-06") < 0, "expired after the summer close");
  assert.ok(
    yearFraction(new Date("2026-01-05T20:30:00Z"), "2026-01-05") > 0,
    "a winter same-day expiry is alive at 20:30 UTC",
  );
});

test("0DTE in winter: a true 30 % option at 13:00 EST solves as 30 %, not 36.7 %", () => {
  const asOf = new Date("2026-01-05T18:00:00Z"); // 13:00 EST; 3 hours to the 16:00 close
  const years = 3 / (365 * 24);
  close(yearFraction(asOf, "2026-01-05"), years, 1e-15, "3 hours");
  const price = bsmPrice({ spot: 100, strike: 100, years, rate: 0.04, dividendYield: 0, vol: 0.3, right: "C" });
  const q: OptionQuote = {
    symbol: "T",
    asOf,
    expiry: "2026-01-05",
    strike: 100,
    right: "C",
    bid: price - 1e-4,
    ask: price + 1e-4,
    last: null,
    volume: 1,
    openInterest: 1,
  };
  const smiles = impliedVolSmile([q], 100, asOf, () => 0.04, 0);
  assert.equal(smiles.length, 1, "the same-day expiry is still listed an hour before 21:00 UTC");
  close(smiles[0].points[0].iv, 0.3, 1e-3, "0DTE call IV");
});

test("expiry on an NYSE holiday or weekend stops trading the session before (Good Friday 2026-04-03 → Thursday 16:00 EDT)", () => {
  const asOf = new Date("2026-04-01T20:00:00Z");
  close(yearFraction(asOf, "2026-04-03"), 1 / 365, 1e-15, "rolls to 2026-04-02 20:00 UTC");
  close(yearFraction(asOf, "2026-04-04"), 1 / 365, 1e-15, "Saturday rolls past Good Friday too");
});

test("flat 25 % vol chain: every expiry's ATM IV, the 30- and 90-day CM ATM IV recover 0.25 to 1e-6; term slope 0", () => {
  const chain = syntheticChain(100, AS_OF, [9, 23, 37, 65, 100, 128], range(70, 130, 5), () => 0.25);
  const smiles = impliedVolSmile(chain, 100, AS_OF, rateFn, Q);
  assert.equal(smiles.length, 6);
  for (const s of smiles) close(atmIvForExpiry(s), 0.25, 1e-6, `ATM ${s.expiry}`);
  const iv30 = constantMaturityAtmIv(chain, 100, AS_OF, rateFn, Q, 30);
  const iv90 = constantMaturityAtmIv(chain, 100, AS_OF, rateFn, Q, 90);
  close(iv30, 0.25, 1e-6, "CM30");
  close(iv90, 0.25, 1e-6, "CM90");
  close(termSlope(iv90, iv30), 0, 1e-6, "term slope");
  assert.equal(termSlope(null, iv30), null);
});

test("CM30 interpolates linearly in total variance: 22d at 20 %, 43d at 30 % → sqrt(2.019048/30) = 0.259426 (hand-computed)", () => {
  // Tuesdays 2026-01-27 and 2026-02-17 (Feb 16 is Presidents' Day). w22 = 0.04·22/365, w43 = 0.09·43/365;
  // w30 = (0.88 + 2.99·8/21)/365 = 2.019048/365; σ30 = sqrt(2.019048/30).
  const chain = syntheticChain(100, AS_OF, [22, 43], range(80, 120, 2.5), (_k, _r, d) => (d === 22 ? 0.2 : 0.3));
  close(
    constantMaturityAtmIv(chain, 100, AS_OF, rateFn, Q, 30),
    Math.sqrt((0.88 + (2.99 * 8) / 21) / 30),
    1e-6,
    "CM30",
  );
  close(constantMaturityAtmIv(chain, 100, AS_OF, rateFn, Q, 30), 0.259426, 1e-6, "CM30 digits");
  close(constantMaturityAtmIv(chain, 100, AS_OF, rateFn, Q, 10), 0.2, 1e-6, "flat before the first expiry");
  close(constantMaturityAtmIv(chain, 100, AS_OF, rateFn, Q, 90), 0.3, 1e-6, "flat after the last expiry");
  assert.equal(constantMaturityAtmIv([], 100, AS_OF, rateFn, Q, 30), null);
});

test("smile uses the OTM contract (puts below the forward, calls above) and skips bid ≤ 0 and crossed quotes", () => {
  // Put and call of each strike are priced at different vols so the chosen contract is visible in the IV.
  const volFn = (_k: number, right: OptionRight) => (right === "P" ? 0.3 : 0.2);
  const chain = syntheticChain(100, AS_OF, [30], [90, 95, 105, 110], volFn);
  const withoutPut95 = chain.filter((q) => !(q.strike === 95 && q.right === "P"));
  const broken: OptionQuote[] = [
    { ...chain[0], strike: 80, right: "P", bid: 0, ask: 0.05 },
    { ...chain[0], strike: 120, right: "C", bid: 0.5, ask: 0.4 },
  ];
  const [smile] = impliedVolSmile([...withoutPut95, ...broken], 100, AS_OF, rateFn, Q);
  assert.deepEqual(
    smile.points.map((p) => [p.strike, p.right]),
    [
      [90, "P"],
      [95, "C"],
      [105, "C"],
      [110, "C"],
    ],
  );
  close(smile.points[0].iv, 0.3, 1e-6, "OTM put 90");
  close(smile.points[1].iv, 0.2, 1e-6, "ITM call 95 stands in for the missing put");
  close(smile.points[3].iv, 0.2, 1e-6, "OTM call 110");
  close(smile.forward, 100 * Math.exp((rateFn(30 / 365) - Q) * (30 / 365)), 1e-12, "forward");
});

const smileOf = (forward: number, points: [number, number][]): ExpirySmile => ({
  expiry: "2026-02-04",
  years: 30 / 365,
  rate: 0.03,
  forward,
  points: points.map(([strike, iv]) => ({ strike, iv, right: "C", mid: 1, callDelta: 0.5 })),
});

test("ATM IV: linear in strike between the strikes around the forward; nearest strike within 2.5 % when unbracketed", () => {
  close(
    atmIvForExpiry(
      smileOf(101, [
        [95, 0.33],
        [100, 0.3],
        [105, 0.25],
      ]),
    ),
    0.29,
    1e-12,
    "0.30 + 0.2·(0.25 − 0.30)",
  );
  close(
    atmIvForExpiry(
      smileOf(100, [
        [95, 0.33],
        [100, 0.3],
      ]),
    ),
    0.3,
    1e-12,
    "forward on a strike",
  );
  close(
    atmIvForExpiry(
      smileOf(101, [
        [95, 0.33],
        [99.5, 0.27],
      ]),
    ),
    0.27,
    1e-12,
    "99.5 is 1.5 % from 101",
  );
  assert.equal(
    atmIvForExpiry(
      smileOf(101, [
        [90, 0.33],
        [95, 0.3],
      ]),
    ),
    null,
    "95 is 5.9 % away",
  );
});

test("skew depends on strike spacing no more than the stated bound: $1, $5 and $10 grids against the exact 25-delta skew", () => {
  const expiry = "2026-02-04";
  const T = yearFraction(AS_OF, expiry);
  const S = 100,
    r = 0.04,
    q = 0.01;
  const F = S * Math.exp((r - q) * T);
  const vol = (k: number) => {
    const x = Math.log(k / F);
    return 0.25 - 0.35 * x + 0.8 * x * x;
  };
  const exactIvAt = (target: number) => {
    let lo = 50,
      hi = 200;
    for (let i = 0; i < 200; i++) {
      const m = (lo + hi) / 2;
      if (
        bsmGreeks({ spot: S, strike: m, years: T, rate: r, dividendYield: q, vol: vol(m), right: "C" }).delta > target
      )
        lo = m;
      else hi = m;
    }
    return vol((lo + hi) / 2);
  };
  const exact = exactIvAt(Math.exp(-q * T) - 0.25) - exactIvAt(0.25);
  close(exact, 0.033947, 1e-5, "exact skew, 3.39 vol points");
  // σ''(K) = (0.8·2 + 0.35 − 1.6·x) / K² ≤ 2.3e-4 on the 25-delta strikes (K ≥ 92): the bound per wing is h²/8 ×
  // 2.3e-4.
  for (const [h, observed] of [
    [1, 0.00002],
    [5, 0.0002],
    [10, 0.0011],
  ] as const) {
    const chain: OptionQuote[] = [];
    for (let k = 50; k <= 150; k += h) {
      for (const right of ["C", "P"] as const) {
        const p = bsmPrice({ spot: S, strike: k, years: T, rate: r, dividendYield: q, vol: vol(k), right });
        chain.push({
          symbol: "T",
          asOf: AS_OF,
          expiry,
          strike: k,
          right,
          bid: p * 0.9999,
          ask: p * 1.0001,
          last: null,
          volume: 1,
          openInterest: 1,
        });
      }
    }
    const skew = skew25Delta(
      impliedVolSmile(chain, S, AS_OF, () => r, q),
      q,
      30,
    )!;
    const err = Math.abs(skew.skew - exact);
    assert.ok(err <= 2 * ((h * h) / 8) * 2.3e-4, `$${h} grid: error ${err} above the stated bound`);
    assert.ok(err <= observed, `$${h} grid: error ${err} above ${observed}`);
  }
});

test("ivAtCallDelta: IV linear in strike, the 25-delta strike solved on its own delta; no extrapolation", () => {
  const smile = smileOf(100, [
    [100, 0.25],
    [112, 0.21],
  ]);
  const sqrtT = Math.sqrt(smile.years);
  for (const p of smile.points)
    p.callDelta = normCdf((Math.log(100 / p.strike) + 0.5 * p.iv * p.iv * smile.years) / (p.iv * sqrtT));
  const iv = ivAtCallDelta(smile, 0.25)!;
  // Recover the strike from the linear IV and check its delta is 0.25.
  const k = 100 + ((iv - 0.25) / (0.21 - 0.25)) * 12;
  assert.ok(k > 100 && k < 112, `strike ${k}`);
  close(
    normCdf((Math.log(100 / k) + 0.5 * iv * iv * smile.years) / (iv * sqrtT)),
    0.25,
    1e-9,
    "delta at the solved strike",
  );
  assert.equal(ivAtCallDelta(smile, 0.01), null, "no extrapolation");
});

test("25-delta skew: put wing at 30 %, call wing at 22 % → skew 0.08 on the expiry nearest 30 days", () => {
  const volFn = (k: number, _r: OptionRight, d: number) => (d === 59 ? (k < 100 ? 0.4 : 0.2) : k < 100 ? 0.3 : 0.22);
  const chain = syntheticChain(100, AS_OF, [25, 59], range(70, 130, 2.5), volFn);
  const skew = skew25Delta(impliedVolSmile(chain, 100, AS_OF, rateFn, Q), Q, 30);
  assert.ok(skew !== null);
  assert.equal(skew.expiry, addDays(AS_OF, 25)); // Friday 2026-01-30
  close(skew.days, 25, 1e-9, "days");
  close(skew.putIv, 0.3, 1e-6, "25d put IV");
  close(skew.callIv, 0.22, 1e-6, "25d call IV");
  close(skew.skew, 0.08, 1e-6, "skew");
});

test("IV history from sparse near-ATM snapshots: one CM30 value per day, days without a close dropped", () => {
  const days = [new Date("2026-01-05T21:00:00Z"), new Date("2026-01-06T21:00:00Z"), new Date("2026-01-07T21:00:00Z")];
  const vols = [0.2, 0.25, 0.3];
  const spots = [100, 102, 99];
  const snapshots = days.map((asOf, i) => syntheticChain(spots[i], asOf, [25, 39], [95, 100, 105], () => vols[i]));
  const stale = syntheticChain(100, new Date("2026-01-06T15:00:00Z"), [25, 39], [95, 100, 105], () => 0.9);
  const closes = { "2026-01-05": 100, "2026-01-06": 102, "2026-01-07": 99 };
  const history = atmIvHistory([snapshots[2], stale, snapshots[0], snapshots[1]], closes, rateFn, Q);
  assert.deepEqual(
    history.map((h) => h.date),
    ["2026-01-05", "2026-01-06", "2026-01-07"],
  );
  history.forEach((h, i) => {
    close(h.atmIv30, vols[i], 1e-6, h.date);
  });
  const withoutClose = atmIvHistory(snapshots, { "2026-01-05": 100, "2026-01-07": 99 }, rateFn, Q);
  assert.deepEqual(
    withoutClose.map((h) => h.date),
    ["2026-01-05", "2026-01-07"],
  );
});
