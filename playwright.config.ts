import { availableParallelism } from "node:os";
import { defineConfig } from "@playwright/test";

const baseURL = process.env.E2E_BASE_URL ?? "http://127.0.0.1:3100";
/**
 * Workers on the one built app: E2E_WORKERS, else one more than the machine's cores. The suite mostly waits (polls
 * within a deadline, a stream's next event, a second product starting): on 2 cores one worker left them half idle
 * (310 CPU-s in 12 min), two used 78 % of them (6.1 min), three 4.9 min (docs/testing.md).
 */
const workers = Number(process.env.E2E_WORKERS ?? availableParallelism() + 1);
/**
 * Tests that must not overlap anything carry the tag `@serial`: the ones that count rows of the whole database (users,
 * audit, sign-up audits, the newest audit row) to show a refused request wrote nothing, and the one that fills the
 * server's per-client connection cap. Project "serial" runs them one at a time after the other projects have finished
 * (its `dependencies`). Mail specs need not be serial: e2e/serve.mjs keeps one SMTP sink for all of them.
 */
const serial = /@serial/;
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
  globalSetup: "./e2e/global-setup.ts",
  workers,
  retries: 0,
  // A saturated 2-core runner (Chromium alone about half the CPU) took over 5 s, Playwright's default, to render an
  // admin page after a click (28 Nov 2026, two runs in a row). Deadlines that are the product's promise ("403 within
  // 5 s") are explicit in their specs and unchanged.
  expect: { timeout: 15_000 },
  // A test's own budget, Playwright's default doubled: in a CI run on the same machine that had passed at 7 min the suite
  // took 14 min, and an axe scan of a signed-out page passed 30 s (28 Nov 2026). Tests with more work set their own.
  timeout: 60_000,
  reporter: "list",
  use: { baseURL },
  projects: [
    { name: "api", testMatch: /.*\.api\.spec\.ts/, grepInvert: serial },
    { name: "chromium", testMatch: /.*\.ui\.spec\.ts/, grepInvert: serial, use: chromium },
    {
      name: "serial",
      testMatch: /.*\.spec\.ts/,
      grep: serial,
      workers: 1,
      dependencies: ["api", "chromium"],
      use: chromium,
    },
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
