/**
 * The per-call part of the benchmark (issue 33; bench/percall.ts, bench/percall-math.ts): CPU µs per call, ratios to
 * the constant route, percentile picking, combining rounds, BENCH_RATES, wrk's p99.9 line and the targets' verdicts.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseWrk } from "../../bench/load";
import { parseRates, perCallTable, perCallTargets, type PerCallResult, type PerCallRow } from "../../bench/percall";
import {
  combineSamples,
  figures,
  percentile,
  rateMet,
  ratios,
  ratioToConstant,
  summarizeLatencies,
  usPerCall,
  type PerCallSample,
} from "../../bench/percall-math";

test("CPU µs per call: CPU milliseconds over calls; none without calls", () => {
  // 3 ticks of 10 ms over 1,000 calls = 30 µs a call
  assert.equal(usPerCall(30, 1000), 30);
  assert.equal(usPerCall(0, 1000), 0);
  assert.equal(usPerCall(120, 4000), 30);
  assert.equal(usPerCall(50, 0), undefined);
});

test("ratio to the constant route: undefined when either side is missing or the constant's is not positive", () => {
  assert.equal(ratioToConstant(80, 40), 2);
  assert.equal(ratioToConstant(10, 40), 0.25);
  assert.equal(ratioToConstant(undefined, 40), undefined);
  assert.equal(ratioToConstant(80, undefined), undefined);
  assert.equal(ratioToConstant(80, 0), undefined);
  assert.equal(ratioToConstant(80, Number.NaN), undefined);
  assert.equal(ratioToConstant(Number.NaN, 2), undefined);
});

test("percentiles by nearest rank", () => {
  const thousand = Float64Array.from({ length: 1000 }, (_, i) => i + 1); // 1..1000
  assert.equal(percentile(thousand, 50), 500);
  assert.equal(percentile(thousand, 99), 990);
  assert.equal(percentile(thousand, 99.9), 999);
  assert.equal(percentile(thousand, 100), 1000);
  assert.equal(percentile([7], 99.9), 7);
  assert.equal(percentile([1, 2], 50), 1);
  assert.equal(percentile([1, 2], 51), 2);
  assert.ok(Number.isNaN(percentile([], 50)));
  // a tiny p never picks below the first value
  assert.equal(percentile([3, 4, 5], 0.0001), 3);
});

test("latency summary sorts a copy of unsorted raw latencies", () => {
  const raw = [5, 1, 4, 2, 3, 100, 6, 7, 8, 9];
  const s = summarizeLatencies(raw);
  assert.deepEqual(s, { p50Ms: 5, p99Ms: 100, p99_9Ms: 100, maxMs: 100 });
  assert.deepEqual(raw.slice(0, 3), [5, 1, 4], "input left as it was");
  assert.ok(Number.isNaN(summarizeLatencies([]).p50Ms));
});

test("an open-loop run met its rate when it answered at least 95 % of it", () => {
  assert.equal(rateMet(4000, 3990), true);
  assert.equal(rateMet(4000, 3800), true);
  assert.equal(rateMet(4000, 3799), false);
  assert.equal(rateMet(2000, 1000, 0.5), true);
});

const sample = (over: Partial<PerCallSample>): PerCallSample => ({
  calls: 10_000,
  seconds: 5,
  serverCpuMs: 400,
  postgresCpuMs: 0,
  achievedRate: 2000,
  p50Ms: 1,
  p99Ms: 3,
  p99_9Ms: 6,
  peakRssMb: 150,
  non2xx: 0,
  errors: 0,
  timeouts: 0,
  ...over,
});

test("rounds combine exactly: CPU per call is total CPU over total calls, not a mean of ratios", () => {
  const a = sample({
    calls: 1000,
    serverCpuMs: 100,
    postgresCpuMs: 10,
    p50Ms: 1,
    p99Ms: 4,
    p99_9Ms: 9,
    achievedRate: 1900,
  });
  const b = sample({
    calls: 3000,
    serverCpuMs: 60,
    postgresCpuMs: 50,
    p50Ms: 3,
    p99Ms: 2,
    p99_9Ms: 5,
    achievedRate: 2100,
  });
  const c = combineSamples([a, b]);
  assert.equal(c.calls, 4000);
  assert.equal(c.serverCpuMs, 160);
  assert.equal(figures(c).serverUs, 40); // 160 ms over 4,000 calls (the mean of 100 and 20 µs would be 60)
  assert.equal(figures(c).postgresUs, 15);
  assert.equal(c.achievedRate, 2000);
  assert.equal(c.p50Ms, 2); // median of the rounds' p50s
  assert.equal(c.p99Ms, 4); // the worst round's
  assert.equal(c.p99_9Ms, 9);
  assert.equal(c.serverMetered, undefined);
  assert.equal(combineSamples([sample({ serverMetered: 5 }), sample({ serverMetered: 7 })]).serverMetered, 12);
  // a p99.9 the tool did not give stays unknown rather than becoming 0
  assert.ok(Number.isNaN(combineSamples([sample({ p99_9Ms: Number.NaN })]).p99_9Ms));
  assert.equal(combineSamples([sample({ p99_9Ms: Number.NaN }), sample({ p99_9Ms: 4 })]).p99_9Ms, 4);
});

test("every per-call figure as a ratio to the constant route's", () => {
  const constant = figures(sample({ serverCpuMs: 400, postgresCpuMs: 0, p99Ms: 2, peakRssMb: 100 }));
  const pipeline = figures(sample({ serverCpuMs: 1000, postgresCpuMs: 250, p99Ms: 5, peakRssMb: 120 }));
  assert.equal(pipeline.serverUs, 100);
  assert.equal(pipeline.postgresUs, 25);
  const q = ratios(pipeline, constant);
  assert.equal(q.serverUs, 2.5);
  assert.equal(q.postgresUs, undefined); // the constant route does no database work: no ratio
  assert.equal(q.p99Ms, 2.5);
  assert.equal(q.peakRssMb, 1.2);
  assert.equal(q.achievedRate, 1);
});

test("BENCH_RATES: default 2000,4000; sorted, deduplicated, junk dropped", () => {
  assert.deepEqual(parseRates(undefined), [2000, 4000]);
  assert.deepEqual(parseRates("4000, 1000,4000,x,-5,0"), [1000, 4000]);
  assert.deepEqual(parseRates(""), []);
});

test("wrk: p99.9 from the Lua script's done() line, in µs", () => {
  const out = [
    "Running 5s test @ http://127.0.0.1:1/x",
    "  Latency Distribution",
    "     50%  612.00us",
    "     99%    3.10ms",
    "  1000 requests in 5.00s, 1.00MB read",
    "Requests/sec:    200.00",
    "p99.9 4567",
  ].join("\n");
  const r = parseWrk(out);
  assert.equal(r.p50Ms, 0.612);
  assert.equal(r.p99Ms, 3.1);
  assert.equal(r.p99_9Ms, 4.567);
  assert.equal(parseWrk(out.replace("p99.9 4567", "")).p99_9Ms, undefined);
});

function result(rows: Array<[PerCallRow["level"], PerCallRow["route"], Partial<PerCallSample>]>): PerCallResult {
  return {
    rates: [2000, 4000],
    openLoopConnections: 100,
    saturationTool: "autocannon",
    saturationConnections: 50,
    roundS: 5,
    rounds: 1,
    hwmMb: 180,
    rows: rows.map(([level, route, s]) => ({ level, route, sample: sample(s), rounds: [2000] })),
  };
}

test("the issue's targets: PASS, FAIL and not measured", () => {
  const pass = perCallTargets(
    result([
      [2000, "constant", { serverCpuMs: 400 }], // 40 µs
      [2000, "pipeline", { serverCpuMs: 800, postgresCpuMs: 250 }], // 80 µs (2.0 ×), 25 µs
      [4000, "constant", { serverCpuMs: 350, achievedRate: 4000 }],
      [4000, "pipeline", { serverCpuMs: 600, postgresCpuMs: 200, achievedRate: 3990, p99Ms: 9.5 }],
      ["saturation", "constant", { achievedRate: 20_000 }],
      ["saturation", "pipeline", { achievedRate: 5000, p99Ms: 20, postgresCpuMs: 100 }],
      ["saturation", "health", { achievedRate: 12_000 }],
    ]),
  );
  assert.deepEqual(
    pass.map((t) => t.pass),
    [true, true, true, true, true],
    pass.map((t) => `${t.name}: ${t.value}`).join("\n"),
  );

  const fail = perCallTargets(
    result([
      [2000, "constant", { serverCpuMs: 400 }],
      [2000, "pipeline", { serverCpuMs: 900, postgresCpuMs: 310 }], // 2.25 ×, 31 µs
      [4000, "constant", { achievedRate: 4000 }],
      [4000, "pipeline", { achievedRate: 3000, p99Ms: 4 }], // fast but the rate was not met
      ["saturation", "constant", { achievedRate: 20_000 }],
      ["saturation", "pipeline", { achievedRate: 4000, p99Ms: 20, peakRssMb: 260 }],
      ["saturation", "health", { achievedRate: 12_000 }], // 0.33 ×
    ]),
  );
  assert.deepEqual(
    fail.map((t) => t.pass),
    [false, false, false, false, false],
  );
  assert.match(fail[2].value, /BELOW the offered rate/);

  const none = perCallTargets(undefined);
  assert.deepEqual(
    none.map((t) => t.pass),
    [null, null, null, null, null],
  );
});

test("the per-call table marks a rate not met and prints ratios to the constant route", () => {
  const table = perCallTable(
    result([
      [2000, "constant", { serverCpuMs: 400 }],
      [2000, "pipeline", { serverCpuMs: 1000, achievedRate: 1500 }],
    ]),
  ).join("\n");
  assert.match(table, /2000 req\/s\s+\| pipeline \| 1500 \(0\.75 ×\) BELOW OFFERED/);
  assert.match(table, /\| 100\.0 \(2\.50 ×\)/);
  assert.match(table, /pipeline calls metered by the server .*: 2000 req\/s —\/10000/);
});
