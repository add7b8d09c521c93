/**
 * Load generation in a separate process: wrk when it is on PATH (1 thread, a Lua script rotating the keys per
 * request), otherwise autocannon (bench/autocannon-worker.ts, one key per connection).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CpuReport } from "./cpu";
import { median } from "./engine";

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
 * p50 is the median of the rounds' p50s and p99 the worst round's p99.
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
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    tool: "wrk",
    requests: num(/(\d+) requests in/),
    reqPerSec: num(/Requests\/sec:\s+([\d.]+)/),
    p50Ms: pct("50"),
    p99Ms: pct("99"),
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
