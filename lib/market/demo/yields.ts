/**
 * Demo Treasury par yields: Nelson–Siegel level, slope and curvature factors, each a slow mean-reverting walk
 * from the epoch, so the curve drifts, steepens and sometimes inverts.
 */
import { TENORS, TENOR_YEARS, type TreasuryYield } from "../../analytics/types";
import { BoundedMemo } from "../../util/bounded-memo";
import { rngFor, type Rng } from "./prng";
import { isoDate, sessionIndex } from "./calendar";

interface Factors {
  level: number;
  slope: number; // short end minus long end, percent; positive = inverted
  curve: number;
}

const LAMBDA = 1.8; // years; where the slope loading has decayed by 1/e
const MEAN: Factors = { level: 4.2, slope: 0.1, curve: -0.6 };
const KAPPA: Factors = { level: 0.004, slope: 0.006, curve: 0.01 };
const SIGMA: Factors = { level: 0.035, slope: 0.04, curve: 0.05 };

/** Each seed's factor walk so far, extended on demand; nine seeds at most. */
const cache = new BoundedMemo<string, { rng: Rng; factors: Factors[] }>(9);
const startWalk = (seed: string) => ({
  rng: rngFor(seed, "yields"),
  factors: [{ level: 3.2, slope: -0.8, curve: -0.4 }],
});

function factorsAt(seed: number | string, dayMs: number): Factors {
  const s = cache.get(String(seed), startWalk);
  const need = sessionIndex(dayMs);
  while (s.factors.length <= need) {
    const p = s.factors[s.factors.length - 1];
    const next = {} as Factors;
    for (const k of ["level", "slope", "curve"] as const)
      next[k] = p[k] + KAPPA[k] * (MEAN[k] - p[k]) + SIGMA[k] * s.rng.normal();
    next.level = Math.max(1, next.level);
    s.factors.push(next);
  }
  return s.factors[need];
}

/** Par yield in percent at a maturity in years for a session. */
export function yieldAt(seed: number | string, dayMs: number, years: number): number {
  const f = factorsAt(seed, dayMs);
  const x = Math.max(years, 1 / 365) / LAMBDA;
  const load = (1 - Math.exp(-x)) / x;
  return Math.max(0.05, f.level + f.slope * load + f.curve * (load - Math.exp(-x)));
}

/** Continuously compounded risk-free rate for option pricing (decimal). */
export function rateAt(seed: number | string, dayMs: number, years: number): number {
  return Math.log(1 + yieldAt(seed, dayMs, years) / 100);
}

export function yieldCurve(seed: number | string, dayMs: number): TreasuryYield[] {
  const date = isoDate(dayMs);
  return TENORS.map((tenor) => ({
    date,
    tenor,
    yieldPct: Math.round(yieldAt(seed, dayMs, TENOR_YEARS[tenor]) * 100) / 100,
  }));
}
