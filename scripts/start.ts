/**
 * `npm start`: the product on one machine. Without DATABASE_URL it runs the embedded engine (data kept in .data/),
 * applies migrations, seeds reference data, the demo market and a demo key, builds the app if needed and serves it.
 *   --dev       next dev instead of a production build
 *   --no-serve  prepare the database and print the demo key, then exit
 */
import { spawn, type StdioOptions } from "node:child_process";
import { createServer } from "node:net";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { openDatabase } from "../lib/db/client";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "../lib/db/embedded";
import { prepareSchema } from "../lib/db/migrate";
import { appEnv } from "../lib/env";
import { ensureAuthSecret } from "../lib/auth/secret";
import { errorFields, log } from "../lib/log";
import { endpointCatalogue } from "../lib/api/routes";
import { type DemoAccess, demoAccessOnStart } from "../lib/domain/demo-startup";
import { seedReferenceData } from "../lib/domain/seed";
import { demoMarketOnStart } from "../lib/engine/demo-start";
import { demoWallClock } from "../lib/market/demo-wall-clock";
import { nextNeedsBuild } from "../lib/util/next-build";
import { healthOk } from "./health-probe";
import { phase } from "./start-progress";
import { type RestrictedLogin, restrictedLogin } from "./restricted-login";

const args = new Set(process.argv.slice(2));
/** Set when Ctrl-C (or SIGTERM) reached a child: a build cut short must not be followed by a start. */
let stopRequested = false;
const EMBEDDED_DEADLINE_MS = 10_000;
const env = appEnv();
const dataDir = resolve(env.DATA_DIR);
/** The demo market's clock (DEMO_CLOCK_AT): started here and handed on to the server, so that both read the same time. */
const demoClockFrom = env.DEMO_CLOCK_FROM ?? new Date().toISOString();
const demoNow = demoWallClock({ ...env, DEMO_CLOCK_FROM: demoClockFrom });

function run(
  cmd: string,
  argv: string[],
  extraEnv: Record<string, string>,
  capture?: (chunk: Buffer) => void,
): Promise<number> {
  return new Promise((resolveExit) => {
    const stdio: StdioOptions = capture ? ["ignore", "pipe", "pipe"] : "inherit";
    const child = spawn(cmd, argv, { stdio, env: { ...process.env, ...extraEnv } });
    child.stdout?.on("data", (c: Buffer) => capture?.(c));
    child.stderr?.on("data", (c: Buffer) => capture?.(c));
    let forwarded = false;
    const forward = (sig: NodeJS.Signals) => {
      forwarded = true;
      stopRequested = true;
      child.kill(sig);
    };
    process.on("SIGINT", forward);
    process.on("SIGTERM", forward);
    // Next exits 128 + signal after its own graceful stop: a stop we asked for is a clean exit.
    child.on("exit", (code) => resolveExit(forwarded && (code === 130 || code === 143) ? 0 : (code ?? 1)));
  });
}

/** Why the app could not listen on its port, or null when it can (checked before any migration or seeding). */
function cannotListen(port: number, host: string): Promise<NodeJS.ErrnoException | null> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", resolve);
    probe.listen(port, host, () => probe.close(() => resolve(null)));
  });
}

async function main() {
  const taken = args.has("--no-serve") ? null : await cannotListen(env.PORT, env.HOST);
  if (taken) {
    const reason = taken.code === "EADDRINUSE" ? "address already in use" : taken.message;
    log.error(`app cannot listen on ${env.HOST}:${env.PORT}: ${reason}`, { code: taken.code });
    process.exit(1);
  }
  mkdirSync(dataDir, { recursive: true });
  let embedded: EmbeddedDatabase | null = null;
  let url = env.DATABASE_URL;
  if (!url) {
    embedded = await startEmbeddedDatabase(join(dataDir, "pglite"));
    url = embedded.url;
    log.info("embedded database started", { data_dir: join(dataDir, "pglite") });
  }
  const database = openDatabase(url, { max: 4 });
  let demo: DemoAccess | null;
  let login: RestrictedLogin | null = null;
  try {
    await migrationsPhase(database);
    await demoMarketPhase(database);
    // A production start (DATABASE_URL) creates no account or key unless DEMO_ACCOUNT=on; the embedded default does.
    demo = await demoAccessOnStart(database.db, dataDir, {
      embedded: !env.DATABASE_URL,
      demoAccount: env.DEMO_ACCOUNT,
    });
    const production = process.env.NODE_ENV === "production" || !args.has("--dev");
    if (env.DATABASE_URL)
      login = await restrictedLogin(database, url, dataDir, { ownerUrl: env.DATABASE_OWNER_URL, production });
  } finally {
    await database.close();
  }
  // The app then runs with ora_app's grants, as a deployment's does (docs/security.md).
  await embedded?.runAsApp();
  if (args.has("--no-serve")) {
    if (demo) printDemoAccess(demo);
    await embedded?.stop();
    return;
  }
  // The key and the curl line are printed once the server answers with its gateway and analytics warm.
  if (demo) void announceWhenReady(demo);
  const extraEnv: Record<string, string> = {
    ...(login ? { DATABASE_URL: login.url, DATABASE_OWNER_URL: login.ownerUrl } : { DATABASE_URL: url }),
    PORT: String(env.PORT),
    AUTH_SECRET: ensureAuthSecret(dataDir),
    ...(env.DEMO_CLOCK_AT ? { DEMO_CLOCK_FROM: demoClockFrom } : {}),
  };
  // The embedded engine runs one statement at a time in this process: a long demo-market write holds every query for
  // longer than a networked server's deadline would allow (docs/reliability.md).
  if (embedded && !process.env.DB_DEADLINE_MS) extraEnv.DB_DEADLINE_MS = String(EMBEDDED_DEADLINE_MS);
  // The embedded local demo has no mail server: its links go to the log, said explicitly (lib/auth/settings.ts).
  if (embedded && !env.SMTP_URL && !env.MAIL_TO_LOG) extraEnv.MAIL_TO_LOG = "on";
  const next = join("node_modules", ".bin", "next");
  let code: number;
  if (args.has("--dev")) {
    code = await run(next, ["dev", "-p", String(env.PORT), "-H", env.HOST], extraEnv);
  } else {
    if (nextNeedsBuild()) await buildPhase(next);
    if (stopRequested) process.exit(0);
    process.stdout.write("▸ starting the server (the key box follows once it answers)…\n");
    const keepAlive = ["--keepAliveTimeout", String(env.HTTP_KEEP_ALIVE_TIMEOUT_MS)];
    code = await run(next, ["start", "-p", String(env.PORT), "-H", env.HOST, ...keepAlive], extraEnv);
  }
  await embedded?.stop();
  process.exit(code);
}

/** Migrations and the reference data (plans, endpoints, licensing). */
function migrationsPhase(database: ReturnType<typeof openDatabase>): Promise<void> {
  return phase("migrations", async () => {
    await prepareSchema(database);
    await seedReferenceData(database.db, endpointCatalogue());
  });
}

/** The demo market: built once (minutes), then brought up to date on later starts (seconds). */
function demoMarketPhase(database: ReturnType<typeof openDatabase>) {
  return phase(
    "demo market",
    () => demoMarketOnStart(database.db, { seed: env.DEMO_SEED, now: demoNow() }),
    (r) => (r.mode === "built" ? "built (first start: a year of sessions)" : `brought up to date from ${r.fromAsOf}`),
  );
}

/** `next build`, its output kept back (the route table is noise here) and shown only when the build fails. */
async function buildPhase(next: string): Promise<void> {
  const output: Buffer[] = [];
  const built = await phase("build (first run or sources changed)", () =>
    run(next, ["build"], {}, (c) => output.push(c)),
  );
  if (built !== 0) {
    process.stderr.write(Buffer.concat(output));
    throw new Error("next build failed");
  }
}

/** The address a person on this machine types: loopback when the server listens on every interface or on loopback. */
function localBase(): string {
  const host = ["0.0.0.0", "::", "127.0.0.1", "localhost"].includes(env.HOST)
    ? "localhost"
    : env.HOST.includes(":")
      ? `[${env.HOST}]`
      : env.HOST;
  return `http://${host}:${env.PORT}`;
}

/** The demo's way in, as one block: printed last, once the server answers, so no build or start-up line follows it. */
function printDemoAccess(demo: DemoAccess): void {
  const base = localBase();
  const signIn = demo.password
    ? `${base}/signin  as ${demo.email}, password ${demo.password}`
    : `${base}/signin  as ${demo.email} with the password you set (to replace it: printf '%s' NEW | npm run cli -- user set-password --email ${demo.email})`;
  const rule = "─".repeat(72);
  process.stdout.write(
    [
      "",
      rule,
      "  Options Research API is ready, on demo data",
      "",
      `  Portal           ${base}/`,
      `  Sign in          ${signIn}`,
      `  API reference    ${base}/docs`,
      `  Demo test key    ${demo.key}  (Sandbox plan, demo data)`,
      "",
      `  Local webhooks   npm run -s cli -- webhooks listen --forward-to http://localhost:4242/webhooks`,
      "",
      "  Try it:",
      `  curl -H "Authorization: Bearer ${demo.key}" ${base}/api/v1/ticker/AAPL/summary`,
      rule,
      "",
      "",
    ].join("\n"),
  );
}

/** Waits until health answers ok (the gateway is up and the engine's views are computed), then prints the key. */
async function announceWhenReady(demo: DemoAccess): Promise<void> {
  const target = ["0.0.0.0", "::"].includes(env.HOST)
    ? "127.0.0.1"
    : env.HOST.includes(":")
      ? `[${env.HOST}]`
      : env.HOST;
  for (;;) {
    if (await healthOk(`http://${target}:${env.PORT}/api/v1/health`)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  printDemoAccess(demo);
}

main().catch((err) => {
  log.error("start failed", errorFields(err));
  process.exit(1);
});
