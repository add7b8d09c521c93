/** Runs the real standalone API server (`lib/server/api-server.ts`) as a child process against a test database. */
import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "../../lib/util/free-port";
import { bundled } from "./bundles";

export interface RunningServer {
  baseUrl: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

export { freePort };

export async function startApiServer(
  databaseUrl: string,
  env: Record<string, string> = {},
  { startupTimeoutMs = 150_000 } = {}, // start-up warms the whole demo market: slow on a busy machine
): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [bundled("api-server")], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      API_PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      DEMO_TICKER: "off",
      KEY_CACHE_TTL_MS: "0",
      CONFIG_CACHE_TTL_MS: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return superviseServer(child, `http://127.0.0.1:${port}`, "api server", startupTimeoutMs);
}

/** Collects a server child's output and waits until its health answers 200; then the handle to stop it. */
export async function superviseServer(
  child: ChildProcess,
  baseUrl: string,
  name: string,
  startupTimeoutMs: number,
): Promise<RunningServer> {
  let out = "";
  child.stdout?.on("data", (d) => (out += d));
  child.stderr?.on("data", (d) => (out += d));
  const deadline = Date.now() + startupTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}):\n${out}`);
    const res = await fetch(`${baseUrl}/api/v1/health`).catch(() => null);
    if (res?.ok) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${name} did not become healthy:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  const exited = () =>
    new Promise<void>((resolve) =>
      child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve()),
    );
  return {
    baseUrl,
    child,
    output: () => out,
    async stop() {
      child.kill("SIGTERM");
      await exited();
    },
    async kill(signal) {
      child.kill(signal);
      await exited();
    },
  };
}

/** The `error.code` of a JSON error body, or null for anything else. */
export function errorCodeOf(text: string): string | null {
  try {
    return (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? null;
  } catch {
    return null;
  }
}
