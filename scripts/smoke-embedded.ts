/**
 * Smoke test of the README's main command on the embedded engine: `npm start` in a fresh data directory boots,
 * health answers, and one call with the printed demo key returns demo data. Prints "smoke: ok" on success.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../tests/helpers/api-server";

const TIMEOUT_MS = 6 * 60_000; // includes a first `next build`

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "orapi-smoke-"));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn" };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const stop = () => {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      // already gone
    }
  };
  try {
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + TIMEOUT_MS;
    let key: string | undefined;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
      key ??= /Demo test key[^:]*: (svc_test_[0-9A-Za-z]+)/.exec(out)?.[1];
      if (key) {
        const health = await fetch(`${base}/api/v1/health`).catch(() => null);
        if (health?.ok) {
          const body = (await health.json()) as { data: { status: string } };
          if (body.data.status !== "ok") throw new Error(`health says ${body.data.status}`);
          break;
        }
      }
      if (Date.now() > deadline) throw new Error("timed out waiting for the app");
      await new Promise((r) => setTimeout(r, 500));
    }
    const res = await fetch(`${base}/api/v1/ticker/AAPL/summary`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { data?: { symbol: string; service_score: number }; meta?: { is_mock: boolean; plan: string } };
    if (res.status !== 200 || body.data?.symbol !== "AAPL" || body.meta?.is_mock !== true || body.meta.plan !== "Sandbox") {
      throw new Error(`keyed call failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    }
    console.log(`smoke: ok (AAPL service_score ${body.data.service_score}, plan ${body.meta.plan})`);
  } catch (err) {
    console.error(`smoke: FAILED: ${(err as Error).message}\n--- app output ---\n${out.slice(-4000)}`);
    process.exitCode = 1;
  } finally {
    stop();
    await new Promise((r) => setTimeout(r, 1500));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
