// Starts the product for the e2e suite: embedded database in a throwaway data dir, demo ticker on.
// The launcher (scripts/start.ts) builds the Next app first if .next is stale.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dataDir = mkdtempSync(join(tmpdir(), "ora-e2e-"));
const env = { ...process.env, DATA_DIR: dataDir, PORT: process.env.E2E_PORT ?? "3100", DEMO_TICKER: "on" };
delete env.DATABASE_URL; // always the embedded engine, never a shared database

const child = spawn("npx", ["tsx", "scripts/start.ts"], { stdio: "inherit", env });

let cleaned = false;
function cleanup() {
  if (cleaned) return;
  cleaned = true;
  try {
    rmSync(dataDir, { recursive: true, force: true });
  } catch (err) {
    console.error(`e2e/serve: could not remove ${dataDir}: ${err}`);
  }
}

for (const sig of ["SIGTERM", "SIGINT"]) {
  process.on(sig, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    else {
      cleanup();
      process.exit(0);
    }
  });
}

child.on("exit", (code, signal) => {
  cleanup();
  process.exit(code ?? (signal ? 0 : 1));
});
