/**
 * Reference American option prices for the tests: a Leisen–Reimer binomial tree (Leisen & Reimer 1996, Peizer–Pratt
 * inversion method 2) on an asset with a continuous dividend yield, with O(n) memory. Written independently of
 * lib/analytics so the production approximation is checked against a different method.
 */
export interface TreeInput {
  spot: number;
  strike: number;
  years: number;
  rate: number;
  dividendYield: number;
  vol: number;
  right: "C" | "P";
}

/** Peizer–Pratt method 2: the binomial probability that matches the normal tail N(z) for an n-step tree (n odd). */
function peizerPratt(z: number, n: number): number {
  const a = z / (n + 1 / 3 + 0.1 / (n + 1));
  return 0.5 + Math.sign(z) * 0.5 * Math.sqrt(1 - Math.exp(-a * a * (n + 1 / 6)));
}

/** American (or, with american = false, European) price from an n-step Leisen–Reimer tree; n is made odd. */
export function leisenReimer(i: TreeInput, steps = 5001, american = true): number {
  return tree(i, steps, american, () => 0);
}

/**
 * American price under the escrowed-dividend model from an n-step Leisen–Reimer tree: the tree carries the spot less
 * the cash dividends still to go ex before expiry (S* = S − Σ D·e^(−(r−q)·t_D) at t = 0, growing at r − q: QuantLib's
 * escrowed model), and exercise at a node pays the cum-dividend spot S*(t) + Σ_{t_D > t} D·e^(−(r−q)(t_D − t)) against
 * the strike.
 * Every node may exercise, so calls exercised before an ex-date and puts whose exercise value is cut by the dividends
 * still to come are valued under the model at the tree's own resolution (5,001 steps: an ex-date between two steps is
 * exercised around up to T/5001 late or early, where production also offers exercise at the ex-date itself).
 */
export function leisenReimerCash(
  i: TreeInput & { dividends: readonly { years: number; amount: number }[] },
  steps = 5001,
): number {
  const divs = i.dividends.filter((d) => d.years > 0 && d.years < i.years && d.amount > 0);
  const carry = i.rate - i.dividendYield;
  const pvAt = (t: number) =>
    divs.reduce((s, d) => (d.years > t ? s + d.amount * Math.exp(-carry * (d.years - t)) : s), 0);
  return tree(i, steps, true, pvAt);
}

/** The tree on S* = spot − pvAt(0); exercise at time t pays against S*(t) + pvAt(t). */
function tree(i: TreeInput, steps: number, american: boolean, pvAt: (t: number) => number): number {
  const n = steps % 2 === 0 ? steps + 1 : steps;
  const { strike: K, years: T, rate: r, dividendYield: q, vol: v } = i;
  const S0 = i.spot - pvAt(0);
  const dt = T / n;
  const d1 = (Math.log(S0 / K) + (r - q + 0.5 * v * v) * T) / (v * Math.sqrt(T));
  const d2 = d1 - v * Math.sqrt(T);
  const p = peizerPratt(d2, n);
  const pBar = peizerPratt(d1, n);
  const growth = Math.exp((r - q) * dt);
  const u = (growth * pBar) / p;
  const d = (growth - p * u) / (1 - p);
  const disc = Math.exp(-r * dt);
  const pu = disc * p;
  const pd = disc * (1 - p);
  const sign = i.right === "C" ? 1 : -1;
  const values = new Float64Array(n + 1);
  const ratio = u / d;
  let s = S0 * d ** n;
  for (let j = 0; j <= n; j++) {
    values[j] = Math.max(sign * (s - K), 0);
    s *= ratio;
  }
  for (let step = n - 1; step >= 0; step--) {
    const pv = pvAt(step * dt);
    let node = S0 * d ** step;
    for (let j = 0; j <= step; j++) {
      const cont = pd * values[j] + pu * values[j + 1];
      values[j] = american ? Math.max(cont, sign * (node + pv - K)) : cont;
      node *= ratio;
    }
  }
  return values[0];
}
