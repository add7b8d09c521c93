/**
 * Discrete cash dividends on American options: the control-variate correction of Hull & White (1988) on a
 * Leisen–Reimer (1996) lattice. Under the escrowed-dividend model the tradable spot is S*(t) + Σ_{t_D > t} D·e^(−r(t_D − t)),
 * with S* (the spot less the present value of the dividends still to go ex before expiry) lognormal. One lattice on
 * S* values the option twice: exercising against the cum-dividend spot (the model's truth) and against S* alone (the
 * plain American on S*, which the Andersen–Lake–Offengeim pricer values almost exactly). Their difference is the value
 * of the dividends to the exercise decision; the lattice's own discretisation error largely cancels in it.
 */
/** A cash dividend going ex `years` from now (as american.ts CashDividend; kept here so the modules form no cycle). */
interface CashDividend {
  years: number;
  amount: number;
}

/** Lattice steps of the correction (odd, as Leisen–Reimer requires). */
export const CASH_LATTICE_STEPS = 201;

function peizerPratt(z: number, n: number): number {
  const a = z / (n + 1 / 3 + 0.1 / (n + 1));
  return 0.5 + Math.sign(z) * 0.5 * Math.sqrt(1 - Math.exp(-a * a * (n + 1 / 6)));
}

const cum = new Float64Array(CASH_LATTICE_STEPS + 2);
const plain = new Float64Array(CASH_LATTICE_STEPS + 2);
const pvs = new Float64Array(CASH_LATTICE_STEPS + 1);

export interface CashLatticeInput {
  /** S* at t = 0: spot less the present value of the dividends going ex before expiry. */
  escrowed: number;
  strike: number;
  years: number;
  rate: number;
  dividendYield: number;
  vol: number;
  right: "C" | "P";
  dividends: readonly CashDividend[];
}

/** Lattice value with exercise against the cum-dividend spot minus the value with exercise against S* (signed). */
export function cashDividendCorrection(i: CashLatticeInput): number {
  const n = CASH_LATTICE_STEPS;
  const { escrowed: S0, strike: K, years: T, rate: r, dividendYield: q, vol: v } = i;
  const dt = T / n;
  for (let step = 0; step <= n; step++) {
    const t = step * dt;
    let pv = 0;
    for (const d of i.dividends)
      if (d.years > t && d.years <= T && d.amount > 0) pv += d.amount * Math.exp(-r * (d.years - t));
    pvs[step] = pv;
  }
  const sqrtT = Math.sqrt(T);
  const d1 = (Math.log(S0 / K) + (r - q + 0.5 * v * v) * T) / (v * sqrtT);
  const d2 = d1 - v * sqrtT;
  const p = peizerPratt(d2, n);
  const pBar = peizerPratt(d1, n);
  const growth = Math.exp((r - q) * dt);
  const u = (growth * pBar) / p;
  const d = (growth - p * u) / (1 - p);
  const disc = Math.exp(-r * dt);
  const pu = disc * p;
  const pd = disc * (1 - p);
  const sign = i.right === "C" ? 1 : -1;
  const ratio = u / d;
  let s = S0 * d ** n;
  for (let j = 0; j <= n; j++) {
    const x = Math.max(sign * (s - K), 0);
    cum[j] = x;
    plain[j] = x;
    s *= ratio;
  }
  for (let step = n - 1; step >= 0; step--) {
    const pv = pvs[step];
    let node = S0 * d ** step;
    for (let j = 0; j <= step; j++) {
      const exercisePlain = sign * (node - K);
      const c = pd * cum[j] + pu * cum[j + 1];
      const e = exercisePlain + sign * pv;
      cum[j] = c > e ? c : e;
      const a = pd * plain[j] + pu * plain[j + 1];
      plain[j] = a > exercisePlain ? a : exercisePlain;
      node *= ratio;
    }
  }
  return cum[0] - plain[0];
}
