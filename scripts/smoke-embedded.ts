/**
 * Smoke test of the README's main command on the embedded engine: `npm start` in a fresh data directory boots; the
 * demo key is printed only once the server answers, and the first call made with it right then answers 200 within
 * 1 s with demo data; the demo listens on loopback only (a non-loopback address of this machine is refused).
 * Prints "smoke: ok" on success.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import { connect } from "node:net";
import { join } from "node:path";
import { freePort } from "../lib/util/free-port";

const TIMEOUT_MS = 6 * 60_000; // includes a first `next build`

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "orapi-smoke-"));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn" };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const stop = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
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
      key = /Demo test key[^:]*: (svc_test_[0-9A-Za-z]+)/.exec(out)?.[1];
      if (key) break;
      if (Date.now() > deadline) throw new Error("timed out waiting for the app");
      await new Promise((r) => setTimeout(r, 100));
    }
    // Ready when it says so: the first call after the key is printed is as quick as any other.
    const t0 = performance.now();
    const res = await fetch(`${base}/api/v1/ticker/AAPL/summary`, { headers: { authorization: `Bearer ${key}` } });
    const firstCallMs = performance.now() - t0;
    if (firstCallMs > 1000)
      throw new Error(`the first call after the key was printed took ${Math.round(firstCallMs)} ms (limit 1000 ms)`);
    const body = (await res.json()) as {
      data?: { symbol: string; service_score: number };
      meta?: { is_mock: boolean; plan: string };
    };
    if (
      res.status !== 200 ||
      body.data?.symbol !== "AAPL" ||
      body.meta?.is_mock !== true ||
      body.meta.plan !== "Sandbox"
    ) {
      throw new Error(`keyed call failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    }
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((a) => a && !a.internal && a.family === "IPv4")?.address;
    if (outside) {
      const reached = await new Promise<boolean>((resolve) => {
        const socket = connect({ host: outside, port }, () => {
          socket.destroy();
          resolve(true);
        });
        socket.on("error", () => resolve(false));
        socket.setTimeout(3000, () => {
          socket.destroy();
          resolve(false);
        });
      });
      if (reached)
        throw new Error(
          `the demo answers on ${outside}:${port}; it must listen on loopback only unless HOST says otherwise`,
        );
    }
    console.log(
      `smoke: ok (first call ${Math.round(firstCallMs)} ms, AAPL service_score ${body.data.service_score}, plan ${body.meta.plan}, ` +
        `${outside ? `refused on non-loopback ${outside}` : "no non-loopback address to check"})`,
    );
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
