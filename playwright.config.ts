import { defineConfig } from "@playwright/test";

const baseURL = process.env.E2E_BASE_URL ?? "http://127.0.0.1:3100";
/**
 * Workers on the one built app: E2E_WORKERS, else 2. The suite mostly waits (polls within a deadline, a stream's next
 * event, a second product starting): one worker left the machine's 2 cores half idle (310 CPU-s in 12 min).
 */
const workers = Number(process.env.E2E_WORKERS ?? 2);
/**
 * Specs that must not overlap anything: the ones that start the loopback SMTP server on the app's one SMTP port, and
 * the ones that count rows of the whole database (users, audit, sign-up audits, the newest audit row) to show a refused request wrote nothing.
 * Project "serial" runs them one at a time after the other projects have finished (its `dependencies`).
 */
const serialSpecs =
  /((accounts|account-pages|admin|team)\.ui|(admin-authz|portal-roles|portal-security|input-rule)\.api)\.spec\.ts/;
const chromium = {
  browserName: "chromium" as const,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  },
};

export default defineConfig({
  testDir: "e2e",
  workers,
  retries: 0,
  reporter: "list",
  use: { baseURL },
  projects: [
    { name: "api", testMatch: /.*\.api\.spec\.ts/, testIgnore: serialSpecs },
    { name: "chromium", testMatch: /.*\.ui\.spec\.ts/, testIgnore: serialSpecs, use: chromium },
    { name: "serial", testMatch: serialSpecs, workers: 1, dependencies: ["api", "chromium"], use: chromium },
  ],
  webServer: {
    command: "node e2e/serve.mjs",
    url: `${baseURL}/api/v1/health`,
    timeout: 600_000,
    reuseExistingServer: !process.env.CI,
    // SIGTERM (not the default SIGKILL) so e2e/serve.mjs stops the database and removes its temp dir.
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
    stdout: "pipe",
    stderr: "pipe",
  },
});
