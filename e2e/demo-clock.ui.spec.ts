/**
 * The demo market moves at any hour (issue 28, item 2): with the demo clock injected to a Saturday 07:00 UTC, when the
 * US market is closed, the playground's live stream shows an event within 60 s of opening. The shared e2e server runs
 * on wall time, so this spec starts its own product (e2e/serve.mjs: a throwaway database, the demo market built at the
 * injected time) with DEMO_CLOCK_AT on a port of its own, and stops it at the end.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { expect, test } from "@playwright/test";
import { freePort } from "../lib/util/free-port";
import { demoClock } from "../lib/market/demo/clock";
import { portalOrigin, signIn } from "../tests/helpers/portal";
import { chooseRoute, createKey } from "./helpers/playground";
import { watchOtherHosts } from "./helpers/same-host";

const STREAM = "GET /api/v1/stream";
/** A first start builds the demo market (a year of sessions): minutes on a busy machine. */
const SERVER_START_MS = 12 * 60_000;

/** The next Saturday 07:00 UTC: the demo clock's night session, Friday's close to Monday's open. */
function nextSaturdayMorning(now = Date.now()): Date {
  const d = new Date(now);
  d.setUTCHours(7, 0, 0, 0);
  d.setUTCDate(d.getUTCDate() + ((6 - d.getUTCDay() + 7) % 7));
  if (d.getTime() <= now) d.setUTCDate(d.getUTCDate() + 7);
  return d;
}

async function startProduct(port: number, demoClockAt: Date, logPath: string): Promise<ChildProcess> {
  const log = createWriteStream(logPath);
  const child = spawn(process.execPath, ["e2e/serve.mjs"], {
    env: {
      ...process.env,
      E2E_PORT: String(port),
      E2E_BASE_URL: `http://127.0.0.1:${port}`,
      DEMO_CLOCK_AT: demoClockAt.toISOString(),
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  return child;
}

async function stopProduct(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || !child.pid) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(-child.pid, "SIGTERM"); // e2e/serve.mjs stops the group and removes its data directory
  await exited;
}

test("at a time when the US market is closed (a Saturday 07:00 UTC, injected), the playground stream shows an event within 60 s", async ({
  browser,
}, info) => {
  test.setTimeout(SERVER_START_MS + 5 * 60_000);
  const saturday = nextSaturdayMorning();
  expect(demoClock(saturday.getTime()).phase, "the demo clock's night session").toBe("night");
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = await startProduct(port, saturday, info.outputPath("server.log"));
  const context = await browser.newContext({ baseURL: base });
  try {
    await expect
      .poll(async () => (await context.request.get("/api/v1/health").catch(() => null))?.status() ?? 0, {
        timeout: SERVER_START_MS,
        intervals: [2_000],
      })
      .toBe(200);
    const page = await context.newPage();
    const foreign = await watchOtherHosts(context, base);
    const email = `night_${Date.now().toString(36)}@example.com`;
    const password = `pw-${Math.random().toString(36).slice(2)}-night`;
    const signup = await page.request.post("/api/portal/signup", {
      data: { email, password, acceptTerms: true },
      headers: portalOrigin(base),
    });
    expect(signup.status()).toBe(202);
    await signIn(page.request, email, password);
    await createKey(page.request, base); // the playground runs as one of the user's own keys (issue 28, item 4)
    await page.goto("/dashboard/playground");
    await chooseRoute(page, STREAM);
    await expect(page.getByLabel(/^events/)).toHaveValue("flow.sweep,flow.block,flow.unusual");
    await expect(page.getByLabel(/^symbols/), "a first stream watches every symbol").toHaveValue("");

    const panel = page.getByTestId("playground-stream");
    await page.getByRole("button", { name: "Open stream" }).click();
    const opened = Date.now();
    await expect(panel.getByTestId("pg-stream-state")).toContainText("Connected", { timeout: 20_000 });
    const first = panel.getByTestId("pg-stream-list").locator("li").first();
    await expect(first).toBeVisible({ timeout: 60_000 - (Date.now() - opened) });
    const waited = Date.now() - opened;
    info.annotations.push({ type: "first event after", description: `${(waited / 1000).toFixed(1)} s` });
    expect(waited).toBeLessThan(60_000);

    // A flow event of the demo's night session: a print on the injected Saturday, labelled demo.
    await expect(first.getByText(/^flow\./)).toBeVisible();
    const data = JSON.parse((await first.locator("pre").textContent()) ?? "{}") as Record<string, unknown>;
    expect(data).toMatchObject({ environment: "test", isMockData: true, dataLabel: "demo" });
    const printed = new Date(String(data.time));
    expect(printed.getUTCDay(), `printed ${printed.toISOString()}`).toBe(6);
    expect(demoClock(printed.getTime()).phase).toBe("night");
    await page.getByRole("button", { name: "Stop" }).click();
    expect(foreign).toEqual([]);
  } finally {
    await context.close();
    await stopProduct(child);
  }
});
