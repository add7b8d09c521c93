/** Runs the real standalone API server (`lib/server/api-server.ts`) as a child process against a test database. */
import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "../../lib/util/free-port";

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
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/api-server.ts"], {
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
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startupTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`api server exited (${child.exitCode}):\n${out}`);
    try {
      const res = await fetch(`${baseUrl}/api/v1/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`api server did not become healthy:\n${out}`);
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
