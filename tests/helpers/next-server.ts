/**
 * Runs the built Next app (`next start`, the way `npm start` serves it) as a child process against a test database;
 * builds it first when `.next` is missing or older than the sources (the rule of scripts/start.ts, so the e2e suite that
 * runs later finds it built).
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { freePort } from "../../lib/util/free-port";
import { nextNeedsBuild } from "../../lib/util/next-build";
import { type RunningServer, superviseServer } from "./api-server";

const NEXT_BIN = join("node_modules", "next", "dist", "bin", "next");
const BUILD_TIMEOUT_MS = 20 * 60_000;

/** Builds the app unless `.next` is up to date; throws with the build's output when it fails. */
export function ensureNextBuild(): void {
  if (!nextNeedsBuild()) return;
  const r = spawnSync(process.execPath, [NEXT_BIN, "build"], {
    encoding: "utf8",
    timeout: BUILD_TIMEOUT_MS,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
  });
  if (r.status !== 0) throw new Error(`next build failed (${r.status}):\n${`${r.stdout}${r.stderr}`.slice(-4000)}`);
}

export async function startNextServer(
  databaseUrl: string,
  env: Record<string, string> = {},
  { startupTimeoutMs = 180_000 } = {}, // start-up warms the whole demo market: slow on a busy machine
): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [NEXT_BIN, "start", "-p", String(port), "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: databaseUrl,
      AUTH_SECRET: randomBytes(32).toString("base64url"), // production refuses to start without one
      MAIL_TO_LOG: "on", // production without SMTP_URL starts only when told to log mail links
      LOG_LEVEL: "warn",
      DEMO_TICKER: "off",
      KEY_CACHE_TTL_MS: "0",
      CONFIG_CACHE_TTL_MS: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return superviseServer(child, `http://127.0.0.1:${port}`, "next start", startupTimeoutMs);
}
