import { defineConfig } from "@playwright/test";

const baseURL = process.env.E2E_BASE_URL ?? "http://127.0.0.1:3100";
/** Workers on the one built app: E2E_WORKERS, else 1: specs that count rows or need the SMTP port free (portal-security) are not yet isolated from each other. */
const workers = Number(process.env.E2E_WORKERS ?? 1);
/** The specs that start the loopback SMTP server on the app's one SMTP port: one at a time (project "mail"). */
const mailSpecs = /((accounts|account-pages|admin|team)\.ui|portal-roles\.api)\.spec\.ts/;
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
    { name: "api", testMatch: /.*\.api\.spec\.ts/, testIgnore: mailSpecs },
    { name: "chromium", testMatch: /.*\.ui\.spec\.ts/, testIgnore: mailSpecs, use: chromium },
    { name: "mail", testMatch: mailSpecs, workers: 1, use: chromium },
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
