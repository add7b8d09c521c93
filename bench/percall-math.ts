/**
 * The arithmetic of the per-call part (bench/percall.ts, issue 33): CPU per call from /proc times and call counts,
 * ratios to the constant route, percentiles of raw latencies, and combining interleaved rounds. Pure; unit-tested in
 * tests/unit/bench-percall.test.ts.
 */

/**
 * CPU microseconds per call from CPU milliseconds (bench/cpu.ts: /proc ticks of 10 ms) over the calls answered;
 * undefined without calls.
 */
export const usPerCall = (cpuMs: number, calls: number): number | undefined =>
  calls > 0 ? (cpuMs * 1000) / calls : undefined;

/** x over the constant route's figure; undefined when either is missing or the constant's is not positive. */
export const ratioToConstant = (x: number | undefined, constant: number | undefined): number | undefined =>
  x === undefined || constant === undefined || !(constant > 0) || Number.isNaN(x) ? undefined : x / constant;

/**
 * The p-th percentile (0 < p ≤ 100) of values sorted ascending, by nearest rank: the smallest value with at least p %
 * of the values at or below it (p99.9 of 1,000 values is the 999th). NaN for no values.
 */
export function percentile(sortedAscending: ArrayLike<number>, p: number): number {
  const n = sortedAscending.length;
  if (n === 0) return Number.NaN;
  const rank = Math.ceil((p * n) / 100 - 1e-9); // 99.9 % of 1,000 is 999, not 999.0000000000001 rounded up
  return sortedAscending[Math.min(n, Math.max(1, rank)) - 1];
}

export interface LatencySummary {
  p50Ms: number;
  p99Ms: number;
  p99_9Ms: number;
  maxMs: number;
}

/** p50, p99, p99.9 and the maximum of raw latencies (sorts a copy). */
export function summarizeLatencies(latenciesMs: ArrayLike<number>): LatencySummary {
  const sorted = Float64Array.from(latenciesMs).sort();
  return {
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    p99_9Ms: percentile(sorted, 99.9),
    maxMs: sorted.length ? sorted[sorted.length - 1] : Number.NaN,
  };
}

/** An open-loop run met its offered rate when it answered at least `share` of it (default 95 %). */
export const rateMet = (offered: number, achieved: number, share = 0.95): boolean => achieved >= share * offered;

/** One measured run of one route at one load level: raw counts, so that rounds combine exactly. */
export interface PerCallSample {
  /** Calls answered (2xx and not). */
  calls: number;
  /** Seconds the CPU accounting covered. */
  seconds: number;
  /** CPU time of the server's process tree over the run. */
  serverCpuMs: number;
  /** CPU time of the PostgreSQL backends of the benchmark's database over the run. */
  postgresCpuMs: number;
  /** Answers per second the load generator saw. */
  achievedRate: number;
  p50Ms: number;
  p99Ms: number;
  /** NaN when the load generator does not give it. */
  p99_9Ms: number;
  /** The highest RSS of the server's process tree sampled during the run. */
  peakRssMb: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  generatorCores?: number;
  /** usage_events rows written during the run (metered routes only): the server's own count of the calls. */
  serverMetered?: number;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const medianOf = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const worst = (xs: number[]) =>
  xs.some((x) => !Number.isNaN(x)) ? Math.max(...xs.filter((x) => !Number.isNaN(x))) : Number.NaN;

/**
 * Interleaved rounds of one route at one level as one sample: calls, seconds and CPU times add up (so CPU per call is
 * total CPU over total calls), the rate is the mean, p50 the median of the rounds' p50s, p99 / p99.9 / RSS the worst
 * round's.
 */
export function combineSamples(xs: PerCallSample[]): PerCallSample {
  const sum = (get: (x: PerCallSample) => number) => xs.reduce((a, x) => a + get(x), 0);
  const gens = xs.map((x) => x.generatorCores).filter((g): g is number => g !== undefined);
  return {
    calls: sum((x) => x.calls),
    seconds: sum((x) => x.seconds),
    serverCpuMs: sum((x) => x.serverCpuMs),
    postgresCpuMs: sum((x) => x.postgresCpuMs),
    achievedRate: mean(xs.map((x) => x.achievedRate)),
    p50Ms: medianOf(xs.map((x) => x.p50Ms)),
    p99Ms: worst(xs.map((x) => x.p99Ms)),
    p99_9Ms: worst(xs.map((x) => x.p99_9Ms)),
    peakRssMb: worst(xs.map((x) => x.peakRssMb)),
    non2xx: sum((x) => x.non2xx),
    errors: sum((x) => x.errors),
    timeouts: sum((x) => x.timeouts),
    generatorCores: gens.length ? mean(gens) : undefined,
    serverMetered: xs.every((x) => x.serverMetered !== undefined) ? sum((x) => x.serverMetered!) : undefined,
  };
}

/** The per-call figures of a sample, and each as a ratio to the constant route's at the same level. */
export interface PerCallFigures {
  serverUs?: number;
  postgresUs?: number;
  p50Ms: number;
  p99Ms: number;
  p99_9Ms: number;
  peakRssMb: number;
  achievedRate: number;
}

export function figures(x: PerCallSample): PerCallFigures {
  return {
    serverUs: usPerCall(x.serverCpuMs, x.calls),
    postgresUs: usPerCall(x.postgresCpuMs, x.calls),
    p50Ms: x.p50Ms,
    p99Ms: x.p99Ms,
    p99_9Ms: x.p99_9Ms,
    peakRssMb: x.peakRssMb,
    achievedRate: x.achievedRate,
  };
}

export function ratios(x: PerCallFigures, constant: PerCallFigures): Record<keyof PerCallFigures, number | undefined> {
  return {
    serverUs: ratioToConstant(x.serverUs, constant.serverUs),
    postgresUs: ratioToConstant(x.postgresUs, constant.postgresUs),
    p50Ms: ratioToConstant(x.p50Ms, constant.p50Ms),
    p99Ms: ratioToConstant(x.p99Ms, constant.p99Ms),
    p99_9Ms: ratioToConstant(x.p99_9Ms, constant.p99_9Ms),
    peakRssMb: ratioToConstant(x.peakRssMb, constant.peakRssMb),
    achievedRate: ratioToConstant(x.achievedRate, constant.achievedRate),
  };
}
