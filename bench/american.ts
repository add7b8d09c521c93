/**
 * American implied-vol solves per second on one core (this process, single-threaded): a chain of puts and calls on a
 * 1.5 % yielder at a 4.5 % rate (strikes 60–140, 7 days to 1 year, a skewed smile), priced at their true vols, then
 * solved back for as long as the time budget allows. Only contracts that have time value and whose price identifies the
 * vol are counted: those the solver answers `null` for (vega too small for the price to tell the vol, the documented
 * "unknown" rule) are counted apart, as `unknown`, and left out of the loop and of the error. Run alone: `npx tsx bench/american.ts [seconds]`.
 */
import { americanImpliedVol, americanPrice, type AmericanIvInput } from "../lib/analytics/american";

export interface AmericanBenchResult {
  contracts: number;
  /** Contracts with time value whose price does not identify the vol (the solver answers null): not timed. */
  unknown: number;
  solves: number;
  seconds: number;
  /** CPU time of this process over the measured loop (what one core spent, whatever else the machine ran). */
  cpuSeconds: number;
  /** Solves per CPU second of this (single-threaded) process. */
  solvesPerSecond: number;
  /** Solves per wall-clock second (lower when the machine is shared). */
  wallSolvesPerSecond: number;
  /** Largest |solved − true| vol over the measured solves, vol points. */
  maxErrorVolPoints: number;
}

function benchChain(): { price: number; input: AmericanIvInput; vol: number }[] {
  const out: { price: number; input: AmericanIvInput; vol: number }[] = [];
  for (const days of [7, 30, 60, 120, 365])
    for (let strike = 60; strike <= 140; strike += 5)
      for (const right of ["P", "C"] as const) {
        const x = Math.log(strike / 100);
        const vol = 0.25 - 0.3 * x + 0.6 * x * x;
        const input = { spot: 100, strike, years: days / 365, rate: 0.045, dividendYield: 0.015, right };
        const price = americanPrice({ ...input, vol });
        if (price - Math.max(right === "C" ? 100 - strike : strike - 100, 0) > 0.005) out.push({ price, input, vol });
      }
  return out;
}

export function benchAmerican(seconds = 3): AmericanBenchResult {
  const all = benchChain();
  // Warm-up (lets the JIT compile) and the split between identified and unknown vols.
  const chain = all.filter((c) => americanImpliedVol(c.price, c.input) !== null);
  let solves = 0;
  let maxError = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const budget = seconds * 1000;
  while (performance.now() - started < budget) {
    for (const c of chain) {
      const iv = americanImpliedVol(c.price, c.input);
      maxError = Math.max(maxError, iv === null ? Number.POSITIVE_INFINITY : Math.abs(iv - c.vol) * 100); // never null here
    }
    solves += chain.length;
  }
  const elapsed = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  return {
    contracts: chain.length,
    unknown: all.length - chain.length,
    solves,
    seconds: elapsed,
    cpuSeconds,
    solvesPerSecond: solves / cpuSeconds,
    wallSolvesPerSecond: solves / elapsed,
    maxErrorVolPoints: maxError,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = benchAmerican(Number(process.argv[2] ?? 3));
  console.log(
    `American IV: ${Math.round(r.solvesPerSecond)} solves per CPU second on one core (${Math.round(r.wallSolvesPerSecond)}/s wall clock; ${r.solves} solves of ${r.contracts} contracts (${r.unknown} more with an unknown vol, not timed) in ${r.seconds.toFixed(1)} s; max error ${r.maxErrorVolPoints.toExponential(2)} vol points)`,
  );
}
