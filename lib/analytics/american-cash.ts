/**
 * Discrete cash dividends on American options: the escrowed-dividend model (QuantLib's `Escrowed` cash-dividend
 * model) on a Leisen–Reimer (1996) lattice. The tradable spot is S*(t) + Σ_{t_D > t} D·e^(−(r−q)(t_D − t)), with S* (the
 * spot less the dividends still to go ex before expiry, each discounted at r − q) lognormal at carry r − q; the option
 * exercises against that cum-dividend spot. A lattice step resolves time only to T/n, but the value of exercising
 * depends on which side of an ex-date it happens (a call just before, a put just after): each step that holds an
 * ex-date also offers exercise exactly at it, valued at the step's node as the discounted forward of that exercise
 * (S*·e^(−qΔ) + PV(t_D)·e^(−rΔ) − K·e^(−rΔ), Δ = t_D − t). Without this the lattice exercised up to one step late or
 * early, which cost up to 6e-4 of spot on long-dated deep in-the-money puts (issue 31, item 2).
 */
/** A cash dividend going ex `years` from now (as american.ts CashDividend; kept here so the modules form no cycle). */
interface CashDividend {
  years: number;
  amount: number;
}

/** Lattice steps (odd, as Leisen–Reimer requires). */
export const CASH_LATTICE_STEPS = 283;

function peizerPratt(z: number, n: number): number {
  const a = z / (n + 1 / 3 + 0.1 / (n + 1));
  return 0.5 + Math.sign(z) * 0.5 * Math.sqrt(1 - Math.exp(-a * a * (n + 1 / 6)));
}

const values = new Float64Array(CASH_LATTICE_STEPS + 2);
const pvs = new Float64Array(CASH_LATTICE_STEPS + 1);

export interface CashLatticeInput {
  /** S* at t = 0: spot less the dividends going ex before expiry, each discounted at r − q (escrowedSpot). */
  escrowed: number;
  strike: number;
  years: number;
  rate: number;
  dividendYield: number;
  vol: number;
  right: "C" | "P";
  /** Those going ex in (0, T), ascending. */
  dividends: readonly CashDividend[];
}

/**
 * Present value at t of the dividends still to come that the exercise counts: for a call those going ex at or after t
 * (it exercises just before an ex-date), for a put those strictly after t (it exercises just after one).
 */
function pvAt(i: CashLatticeInput, t: number): number {
  const growth = i.rate - i.dividendYield;
  let pv = 0;
  for (const d of i.dividends)
    if (i.right === "C" ? d.years >= t : d.years > t) pv += d.amount * Math.exp(-growth * (d.years - t));
  return pv;
}

/** pvs[step] = pvAt(step·dt) for every step: e^((r−q)t) times the tail sum of D·e^(−(r−q)t_D) still counted. */
function fillPvs(i: CashLatticeInput, n: number, dt: number): void {
  const growth = i.rate - i.dividendYield;
  const divs = i.dividends;
  const tail = new Float64Array(divs.length + 1);
  for (let m = divs.length - 1; m >= 0; m--) tail[m] = tail[m + 1] + divs[m].amount * Math.exp(-growth * divs[m].years);
  let first = 0; // the first dividend still counted at t
  for (let step = 0; step <= n; step++) {
    const t = step * dt;
    while (first < divs.length && (i.right === "C" ? divs[first].years < t : divs[first].years <= t)) first++;
    pvs[step] = first < divs.length ? tail[first] * Math.exp(growth * t) : 0;
  }
}

/** American price under the escrowed-dividend model (see the module comment). */
export function cashDividendAmerican(i: CashLatticeInput): number {
  const n = CASH_LATTICE_STEPS;
  const { escrowed: S0, strike: K, years: T, rate: r, dividendYield: q, vol: v, dividends } = i;
  const dt = T / n;
  fillPvs(i, n, dt);
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
    values[j] = Math.max(sign * (s + pvs[n] - K), 0);
    s *= ratio;
  }
  let next = dividends.length - 1; // the latest ex-date not yet passed going backwards
  const atExGrowth: number[] = [];
  const atExConstant: number[] = [];
  for (let step = n - 1; step >= 0; step--) {
    const t = step * dt;
    const pv = pvs[step];
    while (next >= 0 && dividends[next].years >= t + dt) next--;
    // Exercise exactly at each ex-date inside (t, t + dt): S*·e^(−qΔ) + PV(t_D)·e^(−rΔ) − K·e^(−rΔ), signed.
    atExGrowth.length = 0;
    atExConstant.length = 0;
    for (let m = next; m >= 0 && dividends[m].years > t; m--) {
      const delta = dividends[m].years - t;
      atExGrowth.push(Math.exp(-q * delta));
      atExConstant.push((pvAt(i, dividends[m].years) - K) * Math.exp(-r * delta));
    }
    const shift = sign * (pv - K);
    let node = sign * S0 * d ** step; // signed: the exercise value is node + shift
    if (atExGrowth.length === 0) {
      for (let j = 0; j <= step; j++) {
        const c = pd * values[j] + pu * values[j + 1];
        const e = node + shift;
        values[j] = c > e ? c : e;
        node *= ratio;
      }
      continue;
    }
    for (let j = 0; j <= step; j++) {
      const c = pd * values[j] + pu * values[j + 1];
      let e = node + shift;
      for (let m = 0; m < atExGrowth.length; m++) {
        const atEx = node * atExGrowth[m] + sign * atExConstant[m];
        if (atEx > e) e = atEx;
      }
      values[j] = c > e ? c : e;
      node *= ratio;
    }
  }
  return values[0];
}
