/**
 * Per-call cost (issue 33, item 1) on the standalone server: the constant route and the metered pipeline at fixed
 * offered loads below saturation (BENCH_RATES, default 2000,4000 req/s; open-loop, bench/open-loop-worker.ts) and at
 * saturation (the run's closed-loop tool, 50 connections; the health route too, there). Per route and load: server CPU
 * µs per call (its process tree's /proc CPU time over the calls answered), PostgreSQL CPU µs per call (the backends of
 * the benchmark's database only), p50 / p99 / p99.9 latency, the server's peak RSS during the run, and each as a ratio
 * to the constant route's at the same load in the same run; then a PASS/FAIL line per target of the issue.
 * The two routes at one load run back to back, and the loads in BENCH_ROUNDS interleaved rounds, so that noise from
 * elsewhere on the machine lands on both routes alike.
 */
import type { TestDatabase } from "../fixtures/test-db";
import { startCpu } from "./cpu";
import { type LoadResult, runLoad, runOpenLoop, type Tool } from "./load";
import type { OpenLoopResult } from "./open-loop-worker";
import { combineSamples, figures, rateMet, ratios, type PerCallFigures, type PerCallSample } from "./percall-math";
import { sampleMemory } from "./proc";

export type Level = number | "saturation";
export type PerCallRoute = "constant" | "pipeline" | "health";

export interface PerCallRow {
  level: Level;
  route: PerCallRoute;
  /** The rounds combined (percall-math combineSamples). */
  sample: PerCallSample;
  /** Achieved req/s of each round. */
  rounds: number[];
  /** Open-loop only: the most requests in flight at once (worst round). */
  peakInFlight?: number;
  /** Open-loop only: how late the generator itself sent requests, p99 (worst round; open-loop-worker.ts). */
  sendLagP99Ms?: number;
}

export interface PerCallResult {
  rates: number[];
  openLoopConnections: number;
  saturationTool: Tool;
  saturationConnections: number;
  /** Seconds per route, load and round. */
  roundS: number;
  rounds: number;
  rows: PerCallRow[];
  /** The server's VmHWM at the end of the part: its peak RSS since it started (including earlier parts). */
  hwmMb: number;
}

export interface PerCallOptions {
  pid: number;
  db: TestDatabase;
  tool: Tool;
  urls: Record<PerCallRoute, string>;
  keys: string[];
  rates: number[];
  roundS: number;
  rounds: number;
  saturationConnections: number;
  openLoopConnections: number;
  say: (msg: string) => void;
}

/** BENCH_RATES: comma-separated req/s, default 2000,4000. */
export function parseRates(text: string | undefined): number[] {
  const rates = (text ?? "2000,4000")
    .split(",")
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isFinite(n) && n > 0);
  return [...new Set(rates)].sort((a, b) => a - b);
}

const routesAt = (level: Level): PerCallRoute[] =>
  level === "saturation" ? ["constant", "pipeline", "health"] : ["constant", "pipeline"];

const usageRows = async (db: TestDatabase) => Number((await db.sql`select count(*)::int as n from usage_events`)[0].n);

async function measureOne(o: PerCallOptions, level: Level, route: PerCallRoute) {
  const url = o.urls[route];
  const keys = route === "pipeline" ? o.keys : [];
  const before = route === "pipeline" ? await usageRows(o.db) : 0;
  let accounting: { cpu: ReturnType<typeof startCpu>; memory: ReturnType<typeof sampleMemory> } | undefined;
  const begin = () => {
    accounting = { cpu: startCpu(o.pid, o.db.name), memory: sampleMemory(o.pid) };
  };
  // What a closed-loop (saturation) and an open-loop (fixed rate) result have in common, with the rate achieved.
  let r: Pick<
    LoadResult,
    "requests" | "p50Ms" | "p99Ms" | "p99_9Ms" | "non2xx" | "errors" | "timeouts" | "generatorCores"
  > &
    Partial<Pick<OpenLoopResult, "peakInFlight" | "sendLagP99Ms" | "warmupRequests">> & { rate: number };
  if (level === "saturation") {
    begin();
    const x = await runLoad(o.tool, {
      url,
      keys,
      connections: o.saturationConnections,
      durationS: o.roundS,
      warmupS: 0,
    });
    r = { ...x, rate: x.reqPerSec };
  } else {
    const x = await runOpenLoop(
      { url, keys, rate: level, durationS: o.roundS, connections: o.openLoopConnections, warmupS: 1 },
      begin,
    );
    r = { ...x, rate: x.achievedRate };
  }
  const cpu = accounting!.cpu.stop();
  const memory = accounting!.memory.stop();
  const sample: PerCallSample = {
    calls: r.requests,
    seconds: cpu.seconds ?? 0,
    serverCpuMs: cpu.serverMs ?? Number.NaN,
    postgresCpuMs: cpu.postgresMs ?? Number.NaN,
    achievedRate: r.rate,
    p50Ms: r.p50Ms,
    p99Ms: r.p99Ms,
    p99_9Ms: r.p99_9Ms ?? Number.NaN,
    peakRssMb: memory.peakSampledMb,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    generatorCores: r.generatorCores,
    // The open-loop warm-up's calls were metered too (they fall between the two counts).
    serverMetered: route === "pipeline" ? (await usageRows(o.db)) - before - (r.warmupRequests ?? 0) : undefined,
  };
  return { sample, peakInFlight: r.peakInFlight, sendLagP99Ms: r.sendLagP99Ms };
}

export async function benchPerCall(o: PerCallOptions): Promise<PerCallResult> {
  const levels: Level[] = [...o.rates, "saturation"];
  // A warm-up of each route (2 s closed-loop), so that no measured run includes a cold start.
  for (const route of routesAt("saturation"))
    await runLoad(o.tool, {
      url: o.urls[route],
      keys: route === "pipeline" ? o.keys : [],
      connections: o.saturationConnections,
      durationS: 2,
      warmupS: 0,
    });
  const measured = new Map<string, { samples: PerCallSample[]; peakInFlight?: number; sendLagP99Ms?: number }>();
  for (let round = 1; round <= o.rounds; round++) {
    for (const level of levels) {
      for (const route of routesAt(level)) {
        const { sample: s, peakInFlight, sendLagP99Ms } = await measureOne(o, level, route);
        const key = `${level}|${route}`;
        const m = measured.get(key) ?? { samples: [] };
        m.samples.push(s);
        if (peakInFlight !== undefined) m.peakInFlight = Math.max(m.peakInFlight ?? 0, peakInFlight);
        if (sendLagP99Ms !== undefined) m.sendLagP99Ms = Math.max(m.sendLagP99Ms ?? 0, sendLagP99Ms);
        measured.set(key, m);
        const f = figures(s);
        o.say(
          `  per call, round ${round}/${o.rounds}, ${level === "saturation" ? "saturation" : `${level} req/s offered`}, ${route}: ` +
            `${s.achievedRate.toFixed(0)} req/s achieved, server ${fmt(f.serverUs)} µs, postgres ${fmt(f.postgresUs)} µs a call, ` +
            `p50/p99/p99.9 ${fmt(s.p50Ms, 2)}/${fmt(s.p99Ms, 2)}/${fmt(s.p99_9Ms, 2)} ms, RSS ${fmt(s.peakRssMb)} MB, ` +
            `non-2xx ${s.non2xx}, errors ${s.errors + s.timeouts}` +
            (peakInFlight !== undefined ? `, ${peakInFlight} in flight at most` : "") +
            (sendLagP99Ms !== undefined ? `, generator's own send lag p99 ${fmt(sendLagP99Ms, 2)} ms` : "") +
            (s.serverMetered !== undefined ? ` (server metered ${s.serverMetered} of ${s.calls})` : ""),
        );
      }
    }
  }
  const hwm = sampleMemory(o.pid).stop();
  return {
    rates: o.rates,
    openLoopConnections: o.openLoopConnections,
    saturationTool: o.tool,
    saturationConnections: o.saturationConnections,
    roundS: o.roundS,
    rounds: o.rounds,
    hwmMb: hwm.peakHwmMb,
    rows: levels.flatMap((level) =>
      routesAt(level).map((route) => {
        const m = measured.get(`${level}|${route}`)!;
        return {
          level,
          route,
          sample: combineSamples(m.samples),
          rounds: m.samples.map((x) => Math.round(x.achievedRate)),
          peakInFlight: m.peakInFlight,
          sendLagP99Ms: m.sendLagP99Ms,
        };
      }),
    ),
  };
}

const fmt = (n: number | undefined, d = 1) => (n === undefined || Number.isNaN(n) ? "—" : n.toFixed(d));
const pad = (s: string, w: number) => (s.length >= w ? s : s + " ".repeat(w - s.length));
const levelName = (l: Level) => (l === "saturation" ? "saturation" : `${l} req/s`);

function row(r: PerCallResult, level: Level, route: PerCallRoute) {
  return r.rows.find((x) => x.level === level && x.route === route);
}

/** The per-call table: each figure with its ratio to the constant route's at the same load (× const). */
export function perCallTable(r: PerCallResult): string[] {
  const lines = [
    `per call, standalone server (issue 33): open-loop at fixed offered rates (at most ${r.openLoopConnections} keep-alive connections; ` +
      `latency counted from when each request was due), closed-loop ${r.saturationTool} with ${r.saturationConnections} connections at saturation; ` +
      `${r.rounds} round(s) of ${r.roundS} s per route and load; (n ×) = n times the constant route's figure at the same load in this run`,
  ];
  const head = ["load", "route", "req/s achieved", "server µs/call", "pg µs/call", "p50 ms", "p99 ms", "p99.9 ms"];
  const widths = [11, 8, 22, 15, 15, 14, 15, 15, 12, 11];
  const line = (cells: string[]) => lines.push(cells.map((c, i) => pad(c, widths[i])).join(" | "));
  line([...head, "peak RSS MB", "non-2xx/err"]);
  lines.push(widths.map((w) => "-".repeat(w)).join("-|-"));
  for (const x of r.rows) {
    const c = row(r, x.level, "constant");
    const f = figures(x.sample);
    const q = c && x.route !== "constant" ? ratios(f, figures(c.sample)) : undefined;
    const cell = (k: keyof PerCallFigures, d: number) =>
      `${fmt(f[k], d)}${q && q[k] !== undefined ? ` (${fmt(q[k], 2)} ×)` : ""}`;
    let rate = cell("achievedRate", 0);
    if (x.level !== "saturation" && !rateMet(x.level, x.sample.achievedRate)) rate += " BELOW OFFERED";
    line([
      levelName(x.level),
      x.route,
      rate,
      cell("serverUs", 1),
      cell("postgresUs", 1),
      cell("p50Ms", 2),
      cell("p99Ms", 2),
      cell("p99_9Ms", 2),
      cell("peakRssMb", 0),
      `${x.sample.non2xx}/${x.sample.errors + x.sample.timeouts}`,
    ]);
  }
  const metered = r.rows.filter((x) => x.route === "pipeline");
  lines.push(
    `pipeline calls metered by the server (usage_events rows) vs answered: ${metered
      .map((x) => `${levelName(x.level)} ${x.sample.serverMetered ?? "—"}/${x.sample.calls}`)
      .join(", ")}; server VmHWM at the end ${fmt(r.hwmMb, 0)} MB`,
  );
  const open = r.rows.filter((x) => x.level !== "saturation");
  if (open.length)
    lines.push(
      "open-loop generator, the most requests in flight / its own send lag p99 (a stall of the generator or the machine, " +
        `not of the server): ${open.map((x) => `${levelName(x.level)} ${x.route} ${x.peakInFlight ?? "—"} / ${fmt(x.sendLagP99Ms, 2)} ms`).join(", ")}`,
    );
  return lines;
}

/** Issue 33's targets, measured by this part. */
export function perCallTargets(r: PerCallResult | undefined): { name: string; value: string; pass: boolean | null }[] {
  const fixed = r ? r.rates : [];
  const pair = (level: Level) => {
    const p = r && row(r, level, "pipeline");
    const c = r && row(r, level, "constant");
    return p && c ? { p: figures(p.sample), c: figures(c.sample), row: p } : undefined;
  };
  const server = fixed.map((rate) => ({ rate, x: pair(rate) }));
  const serverRatios = server.map(({ x }) => (x ? ratios(x.p, x.c).serverUs : undefined));
  const levels: Level[] = [...fixed, "saturation"];
  const pg = r ? levels.map((level) => ({ level, us: pair(level)?.p.postgresUs })) : [];
  const at4000 = pair(4000);
  const sat = r && row(r, "saturation", "pipeline");
  const health = r && row(r, "saturation", "health");
  const satConstant = r && row(r, "saturation", "constant");
  const ofHealth =
    sat && health && health.sample.achievedRate > 0 ? sat.sample.achievedRate / health.sample.achievedRate : undefined;
  const rss = r ? Math.max(r.hwmMb, ...r.rows.map((x) => x.sample.peakRssMb)) : undefined;
  return [
    {
      name: "per call: server CPU per metered call ≤ 2 × the constant route's at the same offered load",
      value: server.length
        ? server
            .map(
              ({ rate, x }, i) =>
                `${rate} req/s: ${fmt(x?.p.serverUs)} vs ${fmt(x?.c.serverUs)} µs (${fmt(serverRatios[i], 2)} ×)`,
            )
            .join("; ")
        : "—",
      pass: server.length && serverRatios.every((q) => q !== undefined) ? serverRatios.every((q) => q! <= 2) : null,
    },
    {
      name: "per call: PostgreSQL CPU per metered call ≤ 30 µs (every load)",
      value: pg.length ? pg.map((x) => `${levelName(x.level)} ${fmt(x.us)} µs`).join("; ") : "—",
      pass: pg.length && pg.every((x) => x.us !== undefined) ? pg.every((x) => x.us! <= 30) : null,
    },
    {
      name: "per call: pipeline p99 ≤ 10 ms at 4,000 req/s offered",
      value: at4000
        ? `${fmt(at4000.p.p99Ms, 2)} ms (p99.9 ${fmt(at4000.p.p99_9Ms, 2)} ms; ${fmt(at4000.p.achievedRate, 0)} req/s achieved` +
          `${rateMet(4000, at4000.p.achievedRate) ? "" : ", BELOW the offered rate"})`
        : "— (4000 not in BENCH_RATES)",
      pass: at4000 ? at4000.p.p99Ms <= 10 && rateMet(4000, at4000.p.achievedRate) : null,
    },
    {
      name: "per call: pipeline at saturation ≥ 0.40 × the health route, p99 ≤ 25 ms",
      value:
        sat && health
          ? `${fmt(ofHealth, 3)} × (${fmt(sat.sample.achievedRate, 0)} vs ${fmt(health.sample.achievedRate, 0)} req/s; ` +
            `${fmt(satConstant ? sat.sample.achievedRate / satConstant.sample.achievedRate : undefined, 3)} × the constant route), ` +
            `p99 ${fmt(sat.sample.p99Ms)} ms`
          : "—",
      pass: sat && ofHealth !== undefined ? ofHealth >= 0.4 && sat.sample.p99Ms <= 25 : null,
    },
    {
      name: "per call: server peak RSS ≤ 250 MB",
      value: rss === undefined ? "—" : `${fmt(rss)} MB (VmHWM since start ${fmt(r?.hwmMb)} MB)`,
      pass: rss === undefined ? null : rss <= 250,
    },
  ];
}
