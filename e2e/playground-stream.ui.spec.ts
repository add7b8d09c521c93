import { expect, test } from "@playwright/test";
import { sidewaysScrollers } from "./helpers/page-checks";
import { axeClean, playgroundOn, setScheme } from "./helpers/playground";
import { screenshot } from "./helpers/screenshot";

const STREAM = "GET /api/v1/stream";

test("openStream in the playground: a live list that connects, passes heartbeats through, stops, and frees its slot", async ({
  page,
  context,
  baseURL,
}, info) => {
  test.setTimeout(240_000);
  test.skip(
    (await page.request.get("/api/v1/openapi.json").then((r) => r.text())).includes('"openStream"') === false,
    "GET /api/v1/stream (openStream) is not in this build",
  );
  const foreign = await playgroundOn(page, context, baseURL, STREAM);
  await expect(page.getByLabel(/^events/)).toHaveValue("flow.sweep,flow.block,flow.unusual");
  const open = page.getByRole("button", { name: "Open stream" });
  const stop = page.getByRole("button", { name: "Stop" });
  const panel = page.getByTestId("playground-stream");
  const state = panel.getByTestId("pg-stream-state");

  // Sandbox allows two streams per key: opening and stopping three times shows each stop frees the gateway's slot.
  for (let i = 0; i < 3; i++) {
    await open.click();
    await expect(state).toContainText("Connected", { timeout: 20_000 });
    if (i === 0) {
      // A heartbeat comes every 15 s: the portal passes the stream on as it comes, unbuffered.
      await expect(state).toContainText("Last heartbeat", { timeout: 25_000 });
      await expect(panel.getByText(/Disclaimer in every event/)).toBeVisible();
      for (const scheme of ["light", "dark"] as const) {
        await setScheme(page, scheme);
        await axeClean(page, `playground stream (${scheme})`);
        await panel.scrollIntoViewIfNeeded();
        await screenshot(page, { path: info.outputPath(`stream-${scheme}.png`), fullPage: false });
      }
      await page.setViewportSize({ width: 375, height: 900 });
      await panel.scrollIntoViewIfNeeded();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );
      expect(await sidewaysScrollers(page)).toEqual([]);
      await screenshot(page, { path: info.outputPath("stream-375-dark.png"), fullPage: false });
      await page.emulateMedia({ colorScheme: "light" });
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    await stop.click();
    await expect(state).toContainText("Closed");
    await expect(panel.getByTestId("pg-stream-ended")).toHaveText("Stopped.");
  }

  // A filter the gateway refuses is shown as its answer, and the stream does not open.
  await page.getByLabel(/^events/).fill("no.such_event");
  await open.click();
  const response = page.getByTestId("playground-response");
  await expect(response.getByTestId("pg-status")).toHaveText("HTTP 400", { timeout: 20_000 });
  await expect(response.getByLabel("Response body")).toContainText("invalid_request");
  await expect(panel.getByTestId("pg-stream-ended")).toContainText("did not open");

  // The openings are calls of GET /api/v1/stream: the usage page says how many of today's calls came from the stream.
  await page.goto("/dashboard/usage");
  await expect(page.getByText(/from the live stream \(each event is a call\)/)).toBeVisible({ timeout: 20_000 });
  expect(foreign).toEqual([]);
});
