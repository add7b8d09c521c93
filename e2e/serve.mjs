// Starts the product for the e2e suite: embedded database in a throwaway data dir, demo ticker on.
// The launcher (scripts/start.ts) builds the Next app first if .next is stale.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const dataDir = mkdtempSync(join(tmpdir(), "ora-e2e-"));
const port = process.env.E2E_PORT ?? "3100";
// Mail goes to a loopback SMTP server that the mail specs start on this port (tests/helpers/e2e-env.ts); links point here.
const smtpPort = process.env.E2E_SMTP_PORT ?? String(Number(port) + 25);
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: port,
  DEMO_TICKER: "on",
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true", // the webhook specs deliver to a receiver on loopback…
  NODE_EXTRA_CA_CERTS: fileURLToPath(new URL("./fixtures/loopback-tls.crt", import.meta.url)), // …over https with this test-only certificate
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  MAIL_FROM: "Options Research API <no-reply@example.com>",
  APP_URL: process.env.E2E_BASE_URL ?? `http://127.0.0.1:${port}`,
};
// Specs that need the database itself (terms version, approvals) find it through this file.
writeFileSync(join(tmpdir(), `ora-e2e-${port}.datadir`), dataDir);
delete env.DATABASE_URL; // always the embedded engine, never a shared database

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
