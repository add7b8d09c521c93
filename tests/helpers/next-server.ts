/**
 * Runs the built Next app (`next start`, the way `npm start` serves it) as a child process against a test database;
 * builds it first when `.next` is missing or older than the sources (the rule of scripts/start.ts, so the e2e suite that
 * runs later finds it built).
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../lib/util/free-port";
import { nextNeedsBuild } from "../../lib/util/next-build";
import { type RunningServer, superviseServer } from "./api-server";

const NEXT_BIN = join("node_modules", "next", "dist", "bin", "next");
const BUILD_TIMEOUT_MS = 20 * 60_000;

/** One build at a time per checkout: test files running in parallel may each find `.next` stale. */
const BUILD_LOCK = join(
  tmpdir(),
  `ora-next-build-${createHash("sha256").update(process.cwd()).digest("hex").slice(0, 16)}`,
);

function withBuildLock(run: () => void): void {
  const gaveUpAt = Date.now() + BUILD_TIMEOUT_MS;
  for (;;) {
    try {
      mkdirSync(BUILD_LOCK);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      // A lock older than a build may take was left by a killed run.
      const heldSince = statSync(BUILD_LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - heldSince > BUILD_TIMEOUT_MS) rmSync(BUILD_LOCK, { recursive: true, force: true });
      if (Date.now() > gaveUpAt) throw new Error(`another next build held ${BUILD_LOCK} too long`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
    }
  }
  try {
    run();
  } finally {
    rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

/** Builds the app unless `.next` is up to date; throws with the build's output when it fails. */
export function ensureNextBuild(): void {
  if (nextNeedsBuild()) withBuildLock(build);
}

function build(): void {
  if (!nextNeedsBuild()) return; // built by whoever held the lock before
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
