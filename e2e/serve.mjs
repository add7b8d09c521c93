// Starts the product for the e2e suite (`npm start`'s launcher, scripts/start.ts, which builds the Next app first if
// .next is stale) with the demo ticker on, a throwaway data dir and a throwaway database: a new one on the machine's
// PostgreSQL (TEST_PG_URL, as the integration suite), dropped at the end with the login the launcher made for it; the
// embedded engine when E2E_DATABASE=embedded or PostgreSQL does not answer. The embedded engine runs every statement
// of the app in the launcher's process: on a saturated 2-core runner it built the demo market in 190 s (against
// seconds), and its queue put the specs' 5 s deadlines at risk (docs/testing.md).
import { randomBytes } from "node:crypto";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { SMTPServer } from "smtp-server";

const dataDir = mkdtempSync(join(tmpdir(), "ora-e2e-"));
const port = process.env.E2E_PORT ?? "3100";
const mailDir = join(dataDir, "mail");
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: port,
  DEMO_TICKER: "on",
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true", // the webhook specs deliver to a receiver on loopback…
  NODE_EXTRA_CA_CERTS: fileURLToPath(new URL("./fixtures/loopback-tls.crt", import.meta.url)), // …over https with this test-only certificate
  MAIL_FROM: "Options Research API <no-reply@example.com>",
  APP_URL: process.env.E2E_BASE_URL ?? `http://127.0.0.1:${port}`,
  // The browser suite saturates 2 cores (three workers, Chromium, the product, PostgreSQL): a portal write waited over
  // the default 2 s and answered 500 (CI, 28 Nov 2026). The deadline itself is tested where it is the subject
  // (tests/integration/db-deadline, db-faults*), on servers that are not saturated by a browser.
  DB_DEADLINE_MS: process.env.DB_DEADLINE_MS ?? "10000",
};
// Specs that need the database itself (terms version, approvals) find it through these files.
writeFileSync(join(tmpdir(), `ora-e2e-${port}.datadir`), dataDir);
const databaseFile = join(tmpdir(), `ora-e2e-${port}.database`);
rmSync(databaseFile, { force: true });
delete env.DATABASE_URL; // never a shared database: a new one below, or the embedded engine
delete env.DATABASE_OWNER_URL;

/** A new database on the machine's PostgreSQL for this run, or null (embedded engine) when asked or not answering. */
async function createDatabase() {
  if (process.env.E2E_DATABASE === "embedded") return null;
  const adminUrl = process.env.TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const admin = postgres(adminUrl, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    const name = `orapi_e2e_${port}_${randomBytes(4).toString("hex")}`;
    await admin.unsafe(`create database "${name}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return { adminUrl, name, url: url.toString() };
  } catch (err) {
    console.error(`e2e/serve: PostgreSQL at ${adminUrl} did not answer (${err.message}); using the embedded engine`);
    return null;
  } finally {
    await admin.end({ timeout: 1 });
  }
}

/** Drops the run's database and the login scripts/restricted-login.ts made for it (`ora_web_<database>`). */
async function dropDatabase(db) {
  const admin = postgres(db.adminUrl, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await admin.unsafe(`drop database if exists "${db.name}" with (force)`);
    await admin.unsafe(`drop role if exists "ora_web_${db.name}"`);
  } catch (err) {
    console.error(`e2e/serve: could not drop ${db.name}: ${err.message}`);
  } finally {
    await admin.end({ timeout: 1 });
    rmSync(databaseFile, { force: true });
  }
}

const database = await createDatabase();
if (database) {
  env.DATABASE_URL = database.url;
  env.DEMO_ACCOUNT = "on"; // as the embedded default: the demo account and key exist
  writeFileSync(databaseFile, database.url);
}

/**
 * One real SMTP server for the whole run: it accepts every message and keeps it as a file in the data directory
 * (`mail/<n>.json`: recipients and the raw message; written whole, then renamed into place). The mail specs read it
 * through tests/helpers/e2e-mailbox.ts, so they can run beside the other specs instead of each owning the port. One
 * exception, for the spec of a mail server that is down: messages to `unreachable_…` addresses are answered 421.
 */
async function startMailSink() {
  mkdirSync(mailDir, { recursive: true });
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    // 421 (service not available) is what a server going down answers: the product's send fails as against a dead one.
    onRcptTo(address, _session, callback) {
      if (!address.address.toLowerCase().startsWith("unreachable_")) return callback();
      const down = new Error("Service not available, closing transmission channel");
      down.responseCode = 421;
      callback(down);
    },
    onData(stream, session, callback) {
      const chunks = [];
      stream.on("data", (c) => chunks.push(c));
      stream.on("end", () => {
        const n = String(++received).padStart(6, "0");
        const mail = {
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString("utf8"),
        };
        writeFileSync(join(mailDir, `.${n}.tmp`), JSON.stringify(mail));
        renameSync(join(mailDir, `.${n}.tmp`), join(mailDir, `${n}.json`));
        callback();
      });
    },
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve); // any free port: the specs read the files, not the port
  });
  return server;
}
const mailSink = await startMailSink();
// The app's mail goes to it; links in the mail point at APP_URL.
env.SMTP_URL = `smtp://127.0.0.1:${mailSink.server.address().port}`;

// Own process group: npx does not wait for tsx on SIGTERM, so signals go to the whole group (npx, tsx, start.ts, next).
const child = spawn("npx", ["tsx", "scripts/start.ts"], { stdio: "inherit", env, detached: true });

const groupAlive = () => {
  try {
    process.kill(-child.pid, 0);
    return true;
  } catch {
    return false;
  }
};

let finishing = false;
async function finish(code) {
  if (finishing) return;
  finishing = true;
  // Wait (up to 20 s) for the launcher to stop the server and the embedded database before removing its files.
  for (let i = 0; i < 200 && groupAlive(); i++) await new Promise((r) => setTimeout(r, 100));
  if (groupAlive()) process.kill(-child.pid, "SIGKILL");
  mailSink.close();
  if (database) await dropDatabase(database);
  try {
    rmSync(dataDir, { recursive: true, force: true });
  } catch (err) {
    console.error(`e2e/serve: could not remove ${dataDir}: ${err}`);
  }
  process.exit(code);
}

for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"]) {
  process.on(sig, () => {
    if (groupAlive()) process.kill(-child.pid, sig);
    void finish(0);
  });
}

child.on("exit", (code, signal) => void finish(code ?? (signal ? 0 : 1)));
