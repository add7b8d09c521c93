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
  /** Lattice steps (odd, at most CASH_LATTICE_STEPS, the default): fewer for a coarse search. */
  steps?: number;
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
  const n = Math.min(i.steps ?? CASH_LATTICE_STEPS, CASH_LATTICE_STEPS);
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
  // The ex-dates inside the current step, reused across steps (at most every dividend at once).
  const atExGrowth = new Float64Array(dividends.length);
  const atExConstant = new Float64Array(dividends.length);
  for (let step = n - 1; step >= 0; step--) {
    const t = step * dt;
    const pv = pvs[step];
    while (next >= 0 && dividends[next].years >= t + dt) next--;
    // Exercise exactly at each ex-date inside (t, t + dt): S*·e^(−qΔ) + PV(t_D)·e^(−rΔ) − K·e^(−rΔ), signed.
    let atEx = 0;
    for (let m = next; m >= 0 && dividends[m].years > t; m--) {
      const delta = dividends[m].years - t;
      atExGrowth[atEx] = Math.exp(-q * delta);
      atExConstant[atEx++] = (pvAt(i, dividends[m].years) - K) * Math.exp(-r * delta);
    }
    const shift = sign * (pv - K);
    let node = sign * S0 * d ** step; // signed: the exercise value is node + shift
    if (atEx === 0) {
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
      for (let m = 0; m < atEx; m++) {
        const exercised = node * atExGrowth[m] + sign * atExConstant[m];
        if (exercised > e) e = exercised;
      }
      values[j] = c > e ? c : e;
      node *= ratio;
    }
  }
  return values[0];
}

/** Space steps and the coarser of the two time grids of the finite-difference price (cashDividendAmericanFd). */
export const CASH_FD_SPACE_STEPS = 400;
export const CASH_FD_TIME_STEPS = 200;
/** Crank–Nicolson steps from expiry taken fully implicit instead (Rannacher), so the payoff's kink does not ring. */
const CASH_FD_DAMPING_STEPS = 2;

/**
 * The same escrowed-dividend American price by Crank–Nicolson finite differences in x = ln S* (CASH_FD_SPACE_STEPS
 * over ±6σ√T around S*, at least ±0.5), with every ex-date on the time grid: exercise there is valued exactly (a call
 * counts the dividend at its ex-date, a put does not), where the lattice can only compare the two at a step's node.
 * Exercise checked after each time step costs O(Δt), so the price is extrapolated from CASH_FD_TIME_STEPS and twice
 * that, 2·V(Δt/2) − V(Δt). Against QuantLib's escrowed engine at 4000 × 2000: the audit's call K 80, 2 y, 1e-5
 * (the lattice 1.1e-3); the put K 150, 91 d, vol 40 %, 2e-4 (the lattice 1.1e-3). About 15 lattice prices, so the IV
 * solve uses it only to refine a low-vega answer (americanImpliedVol).
 */
export function cashDividendAmericanFd(i: CashLatticeInput): number {
  return 2 * finiteDifference(i, 2 * CASH_FD_TIME_STEPS) - finiteDifference(i, CASH_FD_TIME_STEPS);
}

function finiteDifference(i: CashLatticeInput, timeSteps: number): number {
  const { escrowed: S0, strike: K, years: T, rate: r, dividendYield: q, vol: v, right } = i;
  const nx = CASH_FD_SPACE_STEPS;
  const sign = right === "C" ? 1 : -1;
  const h = (2 * Math.max(6 * v * Math.sqrt(T), 0.5)) / nx;
  const s = new Float64Array(nx + 1);
  const value = new Float64Array(nx + 1);
  const lnK = Math.log(K);
  for (let j = 0; j <= nx; j++) {
    const x = Math.log(S0) + (j - nx / 2) * h;
    s[j] = Math.exp(x);
    // The cell holding the strike takes the payoff's average over it, so the kink costs O(h²) wherever it falls.
    const [a, b] = [
      Math.max(x - h / 2, right === "C" ? lnK : -Infinity),
      Math.min(x + h / 2, right === "C" ? Infinity : lnK),
    ];
    const straddles = Math.abs(x - lnK) < h / 2;
    value[j] = straddles
      ? b > a
        ? (sign * (Math.exp(b) - Math.exp(a) - K * (b - a))) / h
        : 0
      : Math.max(sign * (s[j] - K), 0);
  }
  const step = crankNicolsonStep(nx, h, r, q, v);
  const times = [0, ...i.dividends.map((d) => d.years).filter((t) => t > 0 && t < T), T];
  let damping = CASH_FD_DAMPING_STEPS;
  for (let seg = times.length - 1; seg >= 1; seg--) {
    const [t0, t1] = [times[seg - 1], times[seg]];
    const m = Math.max(Math.ceil((timeSteps * (t1 - t0)) / T), 1);
    const dt = (t1 - t0) / m;
    for (let k = 1; k <= m; k++) {
      const t = k === m ? t0 : t1 - k * dt; // a segment starts exactly at its ex-date
      const pv = pvAt(i, t);
      const tau = T - t;
      const low = right === "P" ? K - s[0] - pv : 0;
      const high = right === "C" ? Math.max(s[nx] + pv - K, s[nx] * Math.exp(-q * tau) - K * Math.exp(-r * tau)) : 0;
      step(value, dt, damping-- > 0 ? 1 : 0.5, low, high);
      for (let j = 0; j <= nx; j++) {
        const exercise = sign * (s[j] + pv - K);
        if (exercise > value[j]) value[j] = exercise;
      }
    }
  }
  return value[nx / 2];
}

/**
 * One θ-scheme step back in time of V_τ = ½σ²V_xx + (r − q − ½σ²)V_x − rV on the uniform grid (θ = ½ Crank–Nicolson,
 * 1 implicit), the ends held at `low` and `high`.
 */
function crankNicolsonStep(nx: number, h: number, r: number, q: number, v: number) {
  const drift = r - q - 0.5 * v * v;
  const below = (0.5 * v * v) / (h * h) - drift / (2 * h);
  const above = (0.5 * v * v) / (h * h) + drift / (2 * h);
  const centre = -(v * v) / (h * h) - r;
  const rhs = new Float64Array(nx + 1);
  const sweep = new Float64Array(nx + 1);
  return (value: Float64Array, dt: number, theta: number, low: number, high: number) => {
    const e = (1 - theta) * dt;
    for (let j = 1; j < nx; j++)
      rhs[j] = value[j] + e * (below * value[j - 1] + centre * value[j] + above * value[j + 1]);
    const [a, b, c] = [-theta * dt * below, 1 - theta * dt * centre, -theta * dt * above];
    rhs[1] -= a * low;
    rhs[nx - 1] -= c * high;
    sweep[1] = c / b;
    value[1] = rhs[1] / b;
    for (let j = 2; j < nx; j++) {
      const den = b - a * sweep[j - 1];
      sweep[j] = c / den;
      value[j] = (rhs[j] - a * value[j - 1]) / den;
    }
    for (let j = nx - 2; j >= 1; j--) value[j] -= sweep[j] * value[j + 1];
    value[0] = low;
    value[nx] = high;
  };
}
