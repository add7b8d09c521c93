/**
 * Smoke test of the README's main command on the embedded engine: `npm start` in a fresh data directory boots; the
 * demo key is printed only once the server answers, and the first call made with it right then answers 200 within
 * 1 s with demo data; the printed demo password signs in to the portal as the demo user; nothing but log lines follows
 * the printed block; the demo listens on loopback only (a non-loopback address of this machine is refused).
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
      key = /Demo test key\s+(svc_test_[0-9A-Za-z]+)/.exec(out)?.[1];
      if (key && out.includes("/api/v1/ticker/AAPL/summary\n")) break;
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
    const password = /Sign in\s+\S+\/signin\s+as demo@example\.com, password (\S+)/.exec(out)?.[1];
    if (!password) throw new Error("no demo password printed");
    await signIn(base, "demo@example.com", password);
    const afterBlock = out.slice(out.lastIndexOf("/api/v1/ticker/AAPL/summary\n"));
    const chatter = afterBlock
      .split("\n")
      .slice(1)
      .filter((l) => l.trim() !== "" && !l.startsWith("─") && !l.startsWith("{"));
    if (chatter.length) throw new Error(`start-up output after the demo block: ${chatter.join(" | ")}`);
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
      `smoke: ok (first call ${Math.round(firstCallMs)} ms, AAPL service_score ${body.data.service_score}, plan ${body.meta.plan}, demo user signed in, ` +
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

/** Signs in through the portal's credentials endpoint as a browser would, and checks the session names the user. */
async function signIn(base: string, email: string, password: string): Promise<void> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(";")[0];
      jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrf = await fetch(`${base}/api/auth/csrf`);
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie(), origin: base },
    body: new URLSearchParams({ email, password, csrfToken }),
  });
  keep(res);
  const session = (await (await fetch(`${base}/api/auth/session`, { headers: { cookie: cookie() } })).json()) as {
    user?: { email?: string };
  } | null;
  if (session?.user?.email !== email)
    throw new Error(`the printed password did not sign in as ${email} (sign-in answered ${res.status})`);
}

void main();
