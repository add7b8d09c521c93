/** Memory of a server process tree (Linux /proc) and the `next start` server the benchmark runs. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "../lib/util/free-port";

function statusKb(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** The pid and its descendants (`next start` may run its server in a child process). */
export function processTree(pid: number, depth = 0): number[] {
  if (depth > 5) return [pid];
  let children: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
      if (text) children.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    children = [];
  }
  return [pid, ...children.flatMap((c) => processTree(c, depth + 1))];
}

export interface MemoryReport {
  /** VmHWM summed over the process tree: exact for one process, an upper bound for several. */
  peakHwmMb: number;
  /** The highest VmRSS (summed over the tree) seen by the 200 ms sampler. */
  peakSampledMb: number;
  processes: number;
}

/** Samples VmRSS every 200 ms until stopped; `stop()` also reads VmHWM. */
export function sampleMemory(pid: number): { stop(): MemoryReport } {
  let peak = 0;
  const sample = () => {
    const kb = processTree(pid).reduce((s, p) => s + statusKb(p, "VmRSS"), 0);
    if (kb > peak) peak = kb;
  };
  sample();
  const timer = setInterval(sample, 200);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const tree = processTree(pid);
      const hwm = tree.reduce((s, p) => s + statusKb(p, "VmHWM"), 0);
      return { peakHwmMb: hwm / 1024, peakSampledMb: peak / 1024, processes: tree.length };
    },
  };
}

function newestMtime(dir: string, depth = 0): number {
  if (!existsSync(dir) || depth > 12) return 0;
  return readdirSync(dir, { withFileTypes: true }).reduce((m, e) => {
    const p = join(dir, e.name);
    return Math.max(m, e.isDirectory() ? newestMtime(p, depth + 1) : statSync(p).mtimeMs);
  }, 0);
}

/** The same rule as scripts/start.ts: build when .next/BUILD_ID is missing or older than any source. */
export function nextNeedsBuild(): boolean {
  const buildId = join(".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  return ["app", "components", "lib", "db/schema"].some((d) => newestMtime(d) > built);
}

const NEXT_BIN = join("node_modules", "next", "dist", "bin", "next");

export function buildNext(timeoutMs: number): { ok: boolean; ms: number; output: string } {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [NEXT_BIN, "build"], {
    encoding: "utf8",
    timeout: timeoutMs,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  return { ok: r.status === 0, ms: Date.now() - t0, output: `${r.stdout ?? ""}${r.stderr ?? ""}`.slice(-4000) };
}

export interface NextServer {
  baseUrl: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** `next start` on a free loopback port, in its own process group so that stop() ends the whole tree. */
export async function startNext(
  env: Record<string, string>,
  readyPath: string,
  nodeArgs: string[] = [],
  timeoutMs = 60_000,
): Promise<NextServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, NEXT_BIN, "start", "-p", String(port), "-H", "127.0.0.1"], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let out = "";
  const keep = (d: Buffer) => (out = (out + d).slice(-200_000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const baseUrl = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      child.kill("SIGTERM");
    }
    const killer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    }, 5000);
    await exited;
    clearTimeout(killer);
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited (${child.exitCode}):\n${out}`);
    try {
      const res = await fetch(baseUrl + readyPath);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`next start did not answer ${readyPath}:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { baseUrl, child, output: () => out, stop };
}

/** Like tests/helpers/api-server.ts, plus extra node flags (e.g. --cpu-prof); ready when /api/v1/health answers. */
export async function startStandalone(
  databaseUrl: string,
  env: Record<string, string>,
  nodeArgs: string[],
  timeoutMs = 60_000,
): Promise<NextServer> {
  const port = await freePort();
  // Measured as operators run it (`npm run start:api`): the bundled server on plain Node.
  const built = spawnSync(process.execPath, ["scripts/build-api.mjs"], { stdio: "inherit" });
  if (built.status !== 0) throw new Error("building dist/api-server.mjs failed");
  const child = spawn(process.execPath, [...nodeArgs, "--enable-source-maps", "dist/api-server.mjs"], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      API_PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      DEMO_TICKER: "off",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const keep = (d: Buffer) => (out = (out + d).slice(-200_000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const killer = setTimeout(() => child.kill("SIGKILL"), 8000);
    await exited;
    clearTimeout(killer);
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`api server exited (${child.exitCode}):\n${out}`);
    const ok = await fetch(`${baseUrl}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`api server did not become healthy:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return { baseUrl, child, output: () => out, stop };
}
