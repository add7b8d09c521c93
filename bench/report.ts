/** The benchmark's table, its targets (PASS/FAIL) and bench/results/latest.json. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AmericanBenchResult } from "./american";
import type { MarketSyncBenchResult } from "./market-sync";
import type { HistoryBenchResult } from "./history";
import type { EngineResult } from "./engine";
import type { TickerResult } from "./ticker";
import type { UsageBenchResult } from "./usage";
import type { LoadResult } from "./load";
import type { MemoryReport } from "./proc";
import type { WebhookBenchRun } from "./webhooks";
import type { StreamBenchRun } from "./stream";
import type { ResetFloodResult } from "./reset-flood";
import { perCallTable, perCallTargets, type PerCallResult } from "./percall";

export interface ServerRuns {
  constant?: LoadResult;
  pipeline?: LoadResult;
  /** The same pipeline on the route with the largest analytics payload (standalone only). */
  heavy?: LoadResult;
  memory?: MemoryReport;
  error?: string;
  note?: string;
}

export interface BenchResults {
  startedAt: string;
  finishedAt?: string;
  machine: { cpus: number; node: string; loadavgBefore: number[]; loadavgAfter?: number[] };
  load: {
    tool: string;
    connections: number;
    durationS: number;
    rounds: number;
    warmupS: number;
    keys: number;
    keyRotation: string;
  };
  standalone: ServerRuns & { poolMax: number };
  next: ServerRuns;
  american?: AmericanBenchResult | { error: string };
  engine?: EngineResult | { error: string };
  ticker?: TickerResult | { error: string };
  usage?: UsageBenchResult | { error: string };
  history?: HistoryBenchResult | { error: string };
  /** 100-symbol chain sync from a fake vendor, and the API's p99 during it (bench/market-sync.ts). */
  marketSync?: MarketSyncBenchResult | { error: string };
  webhooks?: WebhookBenchRun[] | { error: string };
  stream?: StreamBenchRun | { error: string };
  resetFlood?: ResetFloodResult | { error: string };
  /** Issue 33: CPU, latency and RSS per call at fixed offered loads and at saturation (bench/percall.ts). */
  perCall?: PerCallResult | { error: string };
  targets?: Target[];
  /** req/s of each route over the same server's constant route in this run (what the README quotes). */
  ratios?: Record<string, number | null>;
}

export interface Target {
  name: string;
  value: string;
  pass: boolean | null; // null: not measured
}

const f = (n: number | undefined, d = 1) => (n === undefined || Number.isNaN(n) ? "—" : n.toFixed(d));
const pad = (s: string, w: number) => (s.length >= w ? s : s + " ".repeat(w - s.length));

export function evaluate(r: BenchResults): Target[] {
  const sc = r.standalone.constant;
  const sp = r.standalone.pipeline;
  const nc = r.next.constant;
  const np = r.next.pipeline;
  const runs = [sc, sp, r.standalone.heavy, nc, np].filter((x): x is LoadResult => x !== undefined);
  const engine = r.engine && "fullMedianMs" in r.engine ? r.engine : undefined;
  const american = r.american && "solvesPerSecond" in r.american ? r.american : undefined;
  const ticker = r.ticker && "nodeCores" in r.ticker ? r.ticker : undefined;
  const usage = r.usage && "pageP95Ms" in r.usage ? r.usage : undefined;
  const history = r.history && "p95Ms" in r.history ? r.history : undefined;
  const sRatio = ratioTo(sp, sc);
  const nRatio = ratioTo(np, nc);
  const rss = r.standalone.memory
    ? Math.max(r.standalone.memory.peakHwmMb, r.standalone.memory.peakSampledMb)
    : undefined;
  const heavy = r.standalone.heavy;
  const failures = runs.reduce((s, x) => s + x.non2xx + x.errors + x.timeouts, 0);
  const stream = r.stream && "p99Ms" in r.stream ? r.stream : undefined;
  const reset = r.resetFlood && "ratio" in r.resetFlood ? r.resetFlood : undefined;
  const perCall = r.perCall && "rows" in r.perCall ? r.perCall : undefined;
  return [
    ...perCallTargets(perCall),
    {
      name: "sign-in p95 under 300 concurrent bogus reset completions ≤ 2 × at rest (next start)",
      value: reset
        ? `${reset.floodP95Ms} ms vs ${reset.restP95Ms} ms at rest (${f(reset.ratio, 2)} ×; ${reset.failedSignins} failed sign-ins)`
        : "—",
      pass: reset ? reset.ratio <= 2 && reset.failedSignins === 0 : null,
    },
    {
      name: "stream: 1,000 streams × a 1,000-event burst, p99 delivery ≤ 1 s, all delivered",
      value: stream
        ? `${f(stream.p99Ms, 0)} ms, median of ${stream.bursts.length} bursts (${stream.delivered}/${stream.expected}; ${f(stream.p99Ratio, 2)} × the bare server's ${f(stream.floor.p99Ms, 0)} ms)`
        : "—",
      pass: stream
        ? stream.p99Ms <= 1000 && stream.delivered === stream.expected && stream.opened === stream.streams
        : null,
    },
    {
      name: "stream: server peak RSS ≤ 400 MB",
      value: stream ? `${stream.peakRssMb} MB` : "—",
      pass: stream ? stream.peakRssMb <= 400 : null,
    },
    {
      name: "standalone pipeline ≥ 40 % of its constant route",
      value: sRatio === undefined ? "—" : `${f(sRatio * 100)} %`,
      pass: sRatio === undefined ? null : sRatio >= 0.4,
    },
    { name: "standalone pipeline p99 ≤ 25 ms", value: `${f(sp?.p99Ms)} ms`, pass: sp ? sp.p99Ms <= 25 : null },
    {
      name: "heaviest analytics route within 10 % of the light route's ratio",
      value: heavy && sp ? `${f((heavy.reqPerSec / sp.reqPerSec) * 100)} % of the ticker route's req/s` : "—",
      pass: heavy && sp ? heavy.reqPerSec >= 0.9 * sp.reqPerSec : null,
    },
    {
      name: "zero non-2xx / errors / timeouts (all runs)",
      value: `${failures} in ${runs.length} runs`,
      pass: runs.length ? failures === 0 : null,
    },
    { name: "standalone peak RSS ≤ 250 MB", value: `${f(rss)} MB`, pass: rss === undefined ? null : rss <= 250 },
    {
      name: "Next pipeline ≥ 70 % of Next constant route",
      value: nRatio === undefined ? "—" : `${f(nRatio * 100)} %`,
      pass: nRatio === undefined ? null : nRatio >= 0.7,
    },
    {
      name: "American implied vol ≥ 50,000 solves/s on one core",
      value: american
        ? `${f(american.solvesPerSecond, 0)}/s (CPU time; ${f(american.wallSolvesPerSecond, 0)}/s wall)`
        : "—",
      pass: american ? american.solvesPerSecond >= 50_000 : null,
    },
    {
      name: "demo universe full recompute ≤ 2 s (median)",
      value: `${f(engine?.fullMedianMs, 0)} ms`,
      pass: engine ? engine.fullMedianMs <= 2000 : null,
    },
    {
      name: "incremental demo tick ≤ 100 ms (median, 5 s ticks)",
      value: `${f(engine?.tickMedianMs, 0)} ms (minute steps ${f(engine?.incrementalMedianMs, 0)} ms)`,
      pass: engine ? engine.tickMedianMs <= 100 : null,
    },
    {
      name: "demo ticker at rest ≤ 5 % of a core (60 s)",
      value: ticker ? `${f(ticker.nodeCores * 100)} % (+ postgres ${f(ticker.postgresCores * 100)} %)` : "—",
      pass: ticker ? ticker.nodeCores <= 0.05 : null,
    },
    {
      name: "400-day history of one symbol ≤ 20 ms (p95)",
      value: history
        ? `${f(history.p95Ms)} ms (${history.rows} rows; ${f(history.p95Ratio, 2)} × the constant route's p95 ${f(history.constantP95Ms)} ms)` +
          (history.distinct
            ? `; ranges not asked before ${f(history.distinct.p95Ms)} ms (${f(history.distinct.p95Ratio, 2)} ×)`
            : "")
        : "—",
      pass: history ? history.p95Ms <= 20 : null,
    },
    {
      name: "portal usage page data, 1M events ≤ 300 ms (p95)",
      value: `${f(usage?.pageP95Ms)} ms`,
      pass: usage ? usage.pageP95Ms <= 300 : null,
    },
  ];
}

/** Throughput as a share of the same run's constant route on the same server: the figure that carries across machines. */
export const ratioTo = (x: LoadResult | undefined, constant: LoadResult | undefined) =>
  x && constant && constant.reqPerSec > 0 ? x.reqPerSec / constant.reqPerSec : undefined;

export function ratios(r: BenchResults): Record<string, number | null> {
  const of = (x?: LoadResult, c?: LoadResult) => {
    const v = ratioTo(x, c);
    return v === undefined ? null : +v.toFixed(4);
  };
  return {
    standalonePipeline: of(r.standalone.pipeline, r.standalone.constant),
    standaloneHeavy: of(r.standalone.heavy, r.standalone.constant),
    nextPipeline: of(r.next.pipeline, r.next.constant),
    // A time, not a rate: the stream's p99 over the bare server's with the same bytes and clients (lower is better).
    streamP99OverBare: r.stream && "p99Ratio" in r.stream ? r.stream.p99Ratio : null,
  };
}

export function printReport(r: BenchResults): void {
  const lines: string[] = [];
  lines.push(
    `measured ${r.startedAt.slice(0, 10)} on ${r.machine.cpus} cores (Node ${r.machine.node}, load average before ${r.machine.loadavgBefore.join(" ")}); ` +
      "'× const' is req/s as a share of the same server's constant route in this run",
  );
  const head = [
    "scenario",
    "req/s",
    "× const",
    "p50 ms",
    "p99 ms",
    "non-2xx",
    "err+t/o",
    "peak RSS MB (HWM/sampled)",
    "cores srv/pg/gen/all",
  ];
  const widths = [43, 7, 7, 6, 6, 7, 7, 25, 22];
  const row = (cells: string[]) => lines.push(cells.map((c, i) => pad(c, widths[i])).join(" | "));
  row(head);
  lines.push(widths.map((w) => "-".repeat(w)).join("-|-"));
  const add = (
    label: string,
    x: LoadResult | undefined,
    mem: MemoryReport | undefined,
    constant: LoadResult | undefined,
  ) =>
    row([
      label,
      f(x?.reqPerSec, 0),
      f(ratioTo(x, constant), 3),
      f(x?.p50Ms),
      f(x?.p99Ms),
      String(x?.non2xx ?? "—"),
      x ? String(x.errors + x.timeouts) : "—",
      mem
        ? `${f(mem.peakHwmMb)} / ${f(mem.peakSampledMb)}${mem.processes > 1 ? ` (${mem.processes} procs)` : ""}`
        : "—",
      x?.cpu
        ? `${f(x.cpu.serverCores, 2)}/${f(x.cpu.postgresCores, 2)}/${f(x.generatorCores, 2)}/${f(x.cpu.machineCores, 2)}`
        : "—",
    ]);
  const sc = r.standalone.constant;
  add("standalone GET /__bench/constant", sc, r.standalone.memory, sc);
  add("standalone GET /api/v1/ticker/AAPL/summary", r.standalone.pipeline, r.standalone.memory, sc);
  if (r.standalone.heavy)
    add("standalone GET /api/v1/options-flow?limit=50", r.standalone.heavy, r.standalone.memory, sc);
  add("next GET /api/bench-constant", r.next.constant, r.next.memory, r.next.constant);
  add("next GET /api/v1/ticker/AAPL/summary", r.next.pipeline, r.next.memory, r.next.constant);
  // The spread of the interleaved rounds: each round's req/s over the constant route's in the same round.
  const spread = (label: string, x?: LoadResult, c?: LoadResult) => {
    if (!x?.rounds || !c?.rounds || x.rounds.length !== c.rounds.length) return;
    lines.push(
      `${label}: rounds ${x.rounds.join(", ")} req/s; × const per round ${x.rounds.map((v, i) => f(v / c.rounds![i], 3)).join(", ")}`,
    );
  };
  spread("standalone pipeline", r.standalone.pipeline, sc);
  spread("standalone options-flow", r.standalone.heavy, sc);
  spread("next pipeline", r.next.pipeline, r.next.constant);
  if (r.perCall && "rows" in r.perCall) lines.push("", ...perCallTable(r.perCall));
  else if (r.perCall) lines.push(`per call: ${r.perCall.error}`);
  if (r.engine && "fullMedianMs" in r.engine) {
    const e = r.engine;
    lines.push("");
    const [cold, ...warm] = e.full;
    lines.push(
      `engine (${e.symbols} symbols): cold start with an empty ATM-IV cache (solves and persists a year of history once) ` +
        `${f(cold.totalMs, 0)} ms [${f(cold.loadMs, 0)} load + ${f(cold.computeMs, 0)} compute]`,
    );
    lines.push(
      `  full recompute of every symbol from the store, median of ${warm.length}: ${f(e.fullMedianMs, 0)} ms ` +
        `[runs: ${warm.map((x) => `${f(x.loadMs, 0)} load + ${f(x.computeMs, 0)} compute`).join("; ")}]`,
    );
    const runs = (xs: typeof e.ticks) =>
      xs.map((x) => `${f(x.loadMs, 0)}+${f(x.computeMs, 0)}${x.newChain ? " (new chain)" : ""}`).join("; ");
    lines.push(
      `  one-minute steps (every symbol gets a new chain; load what is newer + recompute), median of ${e.incremental.length}: ` +
        `${f(e.incrementalMedianMs, 0)} ms [load+compute ms: ${runs(e.incremental)}; ${e.incremental[0]?.recomputed ?? 0} symbols recomputed]`,
    );
    lines.push(
      `  the ticker's 5-second ticks for a minute, median of ${e.ticks.length}: ${f(e.tickMedianMs, 0)} ms [load+compute ms: ${runs(e.ticks)}]`,
    );
  } else if (r.engine) lines.push(`engine: ERROR ${r.engine.error}`);
  if (r.ticker && "nodeCores" in r.ticker) {
    const t = r.ticker;
    lines.push(
      `demo ticker at rest (${t.seconds} s of a session from ${t.simulatedFrom}, ${t.versions} ticks written, no requests): ` +
        `node ${f(t.nodeCores * 100)} % of a core (ticker writes + engine loads and recomputes), postgres ${f(t.postgresCores * 100)} %`,
    );
  } else if (r.ticker) lines.push(`demo ticker: ${r.ticker.error}`);
  if (r.usage && "pageP95Ms" in r.usage) {
    const u = r.usage;
    lines.push(
      `portal usage data (${u.events} events, ${u.runs} runs): page p50 ${u.pageP50Ms} ms, p95 ${u.pageP95Ms} ms, max ${u.pageMaxMs} ms; ` +
        `summary p95 ${u.summaryP95Ms} ms, first log page ${u.logP95Ms} ms, next page by cursor ${u.nextPageP95Ms} ms, filtered page ${u.filteredP95Ms} ms`,
    );
  } else if (r.usage) lines.push(`portal usage data: ${r.usage.error}`);
  if (Array.isArray(r.webhooks)) {
    lines.push("");
    for (const w of r.webhooks) {
      lines.push(
        `webhooks, ${w.events} queued events → loopback receiver, ${w.processes} process(es): ${f(w.deliveriesPerSec, 0)} deliveries/s, ` +
          `event→delivery p50 ${f(w.p50Ms, 0)} ms, p99 ${f(w.p99Ms, 0)} ms (${w.delivered} delivered in ${f(w.seconds)} s, ${w.duplicates} duplicates)`,
      );
    }
  } else if (r.webhooks) lines.push(`webhooks: ${r.webhooks.error}`);
  if (r.stream && "p99Ms" in r.stream) {
    const st = r.stream;
    lines.push(
      `stream, ${st.opened}/${st.streams} streams × ${st.events} events (${st.clients} client process(es)): ${st.delivered}/${st.expected} delivered, ` +
        `commit→arrival (medians of ${st.bursts.length} bursts) first ${f(st.firstMs, 0)} ms, p50 ${f(st.p50Ms, 0)} ms, p99 ${f(st.p99Ms, 0)} ms, last ${f(st.lastMs, 0)} ms ` +
        `(p99 of each: ${st.bursts.map((b) => f(b.p99Ms, 0)).join(" / ")} ms); ${st.bytesPerEvent} B an event; server peak RSS ${st.peakRssMb} MB; ` +
        `bare server with the same bytes and clients: p50 ${f(st.floor.p50Ms, 0)} ms, p99 ${f(st.floor.p99Ms, 0)} ms (${st.floor.bursts.map((b) => f(b.p99Ms, 0)).join(" / ")}), ratio ${f(st.p99Ratio, 2)}`,
    );
  } else if (r.stream) lines.push(`stream: ${r.stream.error}`);
  if (r.standalone.error) lines.push(`standalone: ERROR ${r.standalone.error}`);
  if (r.next.error) lines.push(`next: ERROR ${r.next.error}`);
  if (r.standalone.note) lines.push(`standalone: ${r.standalone.note}`);
  if (r.next.note) lines.push(`next: ${r.next.note}`);
  lines.push("");
  for (const t of r.targets ?? [])
    lines.push(`${t.pass === null ? "N/A " : t.pass ? "PASS" : "FAIL"}  ${pad(t.name, 52)} ${t.value}`);
  process.stdout.write(lines.join("\n") + "\n");
}

export function writeResults(r: BenchResults): string {
  const dir = join("bench", "results");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "latest.json");
  writeFileSync(file, JSON.stringify(r, null, 2) + "\n");
  return file;
}
