/**
 * Load generation in a separate process: wrk when it is on PATH (1 thread, a Lua script rotating the keys per
 * request), otherwise autocannon (bench/autocannon-worker.ts, one key per connection); both closed-loop, for
 * saturation. A fixed offered rate (open-loop, for the per-call part): bench/open-loop-worker.ts via runOpenLoop.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CpuReport } from "./cpu";
import { median } from "./engine";
import type { OpenLoopJob, OpenLoopResult } from "./open-loop-worker";

export interface LoadJob {
  url: string;
  keys: string[];
  connections: number;
  durationS: number;
  warmupS: number;
}

export interface LoadResult {
  tool: "wrk" | "autocannon";
  requests: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** p99.9 latency (autocannon's histogram; wrk's through the Lua script's done()). */
  p99_9Ms?: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Average cores the load generator itself used (autocannon only). */
  generatorCores?: number;
  /** Filled in by the orchestrator: cores used by the server, PostgreSQL and the machine during the measured run. */
  cpu?: CpuReport;
  /** Filled in by the orchestrator: usage_events rows written during the measured run (metered calls only). */
  serverMetered?: number;
  /** req/s of each interleaved round this result combines (see combineRounds). */
  rounds?: number[];
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * One scenario's result over its interleaved rounds (equal durations): req/s and cores are the means, counts add up,
 * p50 is the median of the rounds' p50s and p99 (p99.9) the worst round's.
 */
export function combineRounds(rs: LoadResult[]): LoadResult {
  const cpus = rs.map((r) => r.cpu).filter((c): c is CpuReport => c !== undefined);
  const gens = rs.map((r) => r.generatorCores).filter((g): g is number => g !== undefined);
  const sum = (get: (r: LoadResult) => number) => rs.reduce((a, r) => a + get(r), 0);
  return {
    tool: rs[0].tool,
    requests: sum((r) => r.requests),
    reqPerSec: mean(rs.map((r) => r.reqPerSec)),
    p50Ms: median(rs.map((r) => r.p50Ms)),
    p99Ms: Math.max(...rs.map((r) => r.p99Ms)),
    p99_9Ms: rs.every((r) => r.p99_9Ms !== undefined) ? Math.max(...rs.map((r) => r.p99_9Ms!)) : undefined,
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    generatorCores: gens.length ? mean(gens) : undefined,
    cpu:
      cpus.length === rs.length
        ? {
            serverCores: mean(cpus.map((c) => c.serverCores)),
            postgresCores: mean(cpus.map((c) => c.postgresCores)),
            postgresOtherCores: mean(cpus.map((c) => c.postgresOtherCores)),
            machineCores: mean(cpus.map((c) => c.machineCores)),
            machineBusyPct: mean(cpus.map((c) => c.machineBusyPct)),
          }
        : undefined,
    serverMetered: rs.every((r) => r.serverMetered !== undefined) ? sum((r) => r.serverMetered!) : undefined,
    rounds: rs.map((r) => Math.round(r.reqPerSec)),
  };
}

export type Tool = "wrk" | "autocannon";

export function pickTool(): Tool {
  if (process.env.BENCH_LOAD_TOOL === "autocannon") return "autocannon";
  if (!spawnSync("wrk", ["--version"], { encoding: "utf8" }).error) return "wrk";
  // wrk is what the stack's reference figures were measured with (FACTS.md): install Debian's package when we can.
  if (process.getuid?.() === 0 && !spawnSync("apt-get", ["--version"]).error && process.env.BENCH_INSTALL_WRK !== "0") {
    spawnSync("apt-get", ["install", "-y", "-qq", "wrk"], {
      stdio: "ignore",
      timeout: 120_000,
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    if (!spawnSync("wrk", ["--version"], { encoding: "utf8" }).error) return "wrk";
  }
  return "autocannon";
}

function exec(cmd: string, args: string[], env: Record<string, string>, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${cmd} exited ${code}: ${err.slice(-2000)}`));
    });
  });
}

const WRK_SCRIPT = `
local keys = {}
for k in string.gmatch(os.getenv("BENCH_KEYS") or "", "[^,]+") do table.insert(keys, k) end
local i = 0
request = function()
  if #keys == 0 then return wrk.format(nil, nil) end
  i = i + 1
  return wrk.format(nil, nil, { ["Authorization"] = "Bearer " .. keys[(i % #keys) + 1] })
end
done = function(summary, latency, requests)
  io.write(string.format("p99.9 %d\\n", latency:percentile(99.9)))
end
`;

function toMs(value: string, unit: string): number {
  const v = Number(value);
  return unit === "us" ? v / 1000 : unit === "s" ? v * 1000 : unit === "m" ? v * 60_000 : v;
}

export function parseWrk(out: string): LoadResult {
  const pct = (p: string) => {
    const m = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, "m").exec(out);
    return m ? toMs(m[1], m[2]) : NaN;
  };
  const num = (re: RegExp) => Number(re.exec(out)?.[1] ?? 0);
  const p999 = /^p99\.9 (\d+)$/m.exec(out); // printed by WRK_SCRIPT's done()
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    tool: "wrk",
    requests: num(/(\d+) requests in/),
    reqPerSec: num(/Requests\/sec:\s+([\d.]+)/),
    p50Ms: pct("50"),
    p99Ms: pct("99"),
    p99_9Ms: p999 ? Number(p999[1]) / 1000 : undefined, // µs
    non2xx: num(/Non-2xx or 3xx responses: (\d+)/),
    errors: socket ? Number(socket[1]) + Number(socket[2]) + Number(socket[3]) : 0,
    timeouts: socket ? Number(socket[4]) : 0,
  };
}

export async function runLoad(tool: Tool, job: LoadJob): Promise<LoadResult> {
  const limitMs = (job.warmupS + job.durationS + 30) * 1000;
  if (tool === "autocannon") {
    const out = await exec(
      process.execPath,
      ["--import", "tsx", join("bench", "autocannon-worker.ts"), JSON.stringify(job)],
      {},
      limitMs,
    );
    return JSON.parse(out.trim().split("\n").at(-1)!) as LoadResult;
  }
  const dir = mkdtempSync(join(tmpdir(), "bench-wrk-"));
  try {
    const script = join(dir, "keys.lua");
    writeFileSync(script, WRK_SCRIPT);
    const env = { BENCH_KEYS: job.keys.join(",") };
    const base = ["-t1", `-c${job.connections}`, "--timeout", "10s", "-s", script];
    if (job.warmupS > 0) await exec("wrk", [...base, `-d${job.warmupS}s`, job.url], env, limitMs);
    return parseWrk(await exec("wrk", [...base, `-d${job.durationS}s`, "--latency", job.url], env, limitMs));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A fixed offered rate (bench/open-loop-worker.ts): `onStart` runs when the worker's warm-up ends and its measured
 * window begins, so that the caller's accounting covers that window (and the answers still in flight after it) only.
 */
export function runOpenLoop(job: OpenLoopJob, onStart: () => void): Promise<OpenLoopResult> {
  const limitMs = ((job.warmupS ?? 1) * 2 + job.durationS * 2 + (job.timeoutS ?? 10) + 30) * 1000;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join("bench", "open-loop-worker.ts"), JSON.stringify(job)],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    let started = false;
    child.stdout.on("data", (d) => {
      out += d;
      if (!started && /^start$/m.test(out)) {
        started = true;
        onStart();
      }
    });
    child.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), limitMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code === 0 && started) resolve(JSON.parse(out.trim().split("\n").at(-1)!) as OpenLoopResult);
      else reject(new Error(`open-loop worker exited ${code}: ${err.slice(-2000)}`));
    });
  });
}
