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
  const n = steps % 2 === 0 ? steps + 1 : steps;
  const { spot: S, strike: K, years: T, rate: r, dividendYield: q, vol: v } = i;
  const dt = T / n;
  const d1 = (Math.log(S / K) + (r - q + 0.5 * v * v) * T) / (v * Math.sqrt(T));
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
  let s = S * d ** n;
  for (let j = 0; j <= n; j++) {
    values[j] = Math.max(sign * (s - K), 0);
    s *= ratio;
  }
  for (let step = n - 1; step >= 0; step--) {
    let node = S * d ** step;
    for (let j = 0; j <= step; j++) {
      const cont = pd * values[j] + pu * values[j + 1];
      values[j] = american ? Math.max(cont, sign * (node - K)) : cont;
      node *= ratio;
    }
  }
  return values[0];
}
