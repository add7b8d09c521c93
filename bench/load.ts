/**
 * Load generation in a separate process: wrk when it is on PATH (1 thread, a Lua script rotating the keys per
 * request), otherwise autocannon (bench/autocannon-worker.ts, one key per connection).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CpuReport } from "./cpu";

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
}

export type Tool = "wrk" | "autocannon";

export function pickTool(): Tool {
  if (process.env.BENCH_LOAD_TOOL === "autocannon") return "autocannon";
  if (!spawnSync("wrk", ["--version"], { encoding: "utf8" }).error) return "wrk";
  // wrk is what the stack's reference figures were measured with (FACTS.md): install Debian's package when we can.
  if (process.getuid?.() === 0 && !spawnSync("apt-get", ["--version"]).error && process.env.BENCH_INSTALL_WRK !== "0") {
    spawnSync("apt-get", ["install", "-y", "-qq", "wrk"], { stdio: "ignore", timeout: 120_000, env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
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
    const out = await exec(process.execPath, ["--import", "tsx", join("bench", "autocannon-worker.ts"), JSON.stringify(job)], {}, limitMs);
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
