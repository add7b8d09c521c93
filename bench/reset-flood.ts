/**
 * Issue 30's hashing gate under `next start`: a real sign-in (Auth.js credentials, CSRF cookie and all) timed at rest,
 * then again while 300 bogus password-reset completions are kept in flight. Target: the sign-in's p95 under the flood
 * within 2× its p95 at rest. The bogus completions are refused before any hash (the token is checked first), most of them
 * before Next by the in-flight cap (lib/security/request-shed.ts). The flood runs in a process of its own
 * (bench/reset-flood-worker.ts), so the timed sign-ins do not wait on the generator's event loop.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { TestDatabase } from "../fixtures/test-db";
import { signUp } from "../lib/domain/users";

export interface ResetFloodResult {
  signinsPerPhase: number;
  restP95Ms: number;
  floodP95Ms: number;
  ratio: number;
  floodRequests: number;
  floodStatuses: Record<string, number>;
  failedSignins: number;
}

const FLOOD = 300;
const SIGNINS = 30;

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)];

/** One sign-in over HTTP as a browser does it; the milliseconds taken, or null when it did not sign in. */
async function timedSignIn(base: string, email: string, password: string): Promise<number | null> {
  const started = performance.now();
  const csrfRes = await fetch(`${base}/api/auth/csrf`);
  const cookie = csrfRes.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: base },
    body: new URLSearchParams({ email, password, csrfToken }).toString(),
  });
  await res.arrayBuffer();
  const ms = performance.now() - started;
  const signedIn = res.headers.getSetCookie().some((c) => /session-token=[^;]+/.test(c));
  return signedIn && !/error/i.test(res.headers.get("location") ?? "") ? ms : null;
}

async function signinPhase(base: string, email: string, password: string): Promise<{ ms: number[]; failed: number }> {
  const ms: number[] = [];
  let failed = 0;
  for (let i = 0; i < SIGNINS; i++) {
    const t = await timedSignIn(base, email, password).catch(() => null);
    if (t === null) failed++;
    else ms.push(t);
  }
  return { ms, failed };
}

/** Starts FLOOD bogus completions in flight from a process of its own (bench/reset-flood-worker.ts); `stop` ends them. */
async function startFlood(
  base: string,
): Promise<{ stop(): Promise<{ requests: number; statuses: Record<string, number> }> }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join("bench", "reset-flood-worker.ts"), JSON.stringify({ base, flood: FLOOD })],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  let out = "";
  child.stdout.setEncoding("utf8");
  const started = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: string) => {
      out += chunk;
      if (out.includes("started\n")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the flood generator exited (${code}) before it started`)));
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await started;
  return {
    async stop() {
      child.kill("SIGTERM");
      await exited;
      const last = out.trim().split("\n").pop() ?? "{}";
      return JSON.parse(last) as { requests: number; statuses: Record<string, number> };
    },
  };
}

export async function benchResetFlood(
  database: TestDatabase,
  base: string,
  say: (m: string) => void,
): Promise<ResetFloodResult> {
  const email = `bench_${randomBytes(5).toString("hex")}@example.com`;
  const password = `pw-${randomBytes(9).toString("base64url")}`;
  await signUp(database.db, { email, password, acceptTerms: true }, { type: "self" });
  await signinPhase(base, email, password); // warm-up: routes compiled, pools open
  const rest = await signinPhase(base, email, password);
  const flooding = await startFlood(base);
  await new Promise((r) => setTimeout(r, 1000)); // the flood at full height before timing
  const underFlood = await signinPhase(base, email, password);
  const f = await flooding.stop();
  const restP95Ms = Math.round(p95(rest.ms));
  const floodP95Ms = Math.round(p95(underFlood.ms));
  say(`  sign-in p95 at rest ${restP95Ms} ms, under ${FLOOD} bogus resets ${floodP95Ms} ms (${f.requests} resets)`);
  return {
    signinsPerPhase: SIGNINS,
    restP95Ms,
    floodP95Ms,
    ratio: +(floodP95Ms / restP95Ms).toFixed(2),
    floodRequests: f.requests,
    floodStatuses: f.statuses,
    failedSignins: rest.failed + underFlood.failed,
  };
}
