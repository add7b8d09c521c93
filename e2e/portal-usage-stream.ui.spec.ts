/**
 * The usage page's Live stream section: its loading, error and empty states; a key's open streams (from the leases every
 * server holds) against its plan's limit; the stream's metered rows with their calls. axe in light and dark; screenshots
 * at 1280 and 375 px; nothing scrolls sideways on a phone.
 */
import { expect, test } from "@playwright/test";
import { e2eDatabase } from "../tests/helpers/e2e-env";
import { portalOrigin, signUpAndSignIn } from "../tests/helpers/portal";
import { openSse, storeFlowEvent, uniqueStreamSymbol } from "../tests/helpers/sse";
import { sidewaysScrollers } from "./helpers/page-checks";
import { axeClean, setScheme } from "./helpers/playground";
import { screenshot } from "./helpers/screenshot";

test("the usage page shows each key's open streams and the stream's metered events", async ({
  page,
  baseURL,
}, info) => {
  test.setTimeout(180_000);
  await signUpAndSignIn(page.request, baseURL);
  const section = page.getByTestId("stream-usage");

  // Loading, then error with a retry that recovers.
  let fail = true;
  await page.route("**/api/portal/usage/stream", async (route) => {
    if (fail) {
      await new Promise((r) => setTimeout(r, 1500));
      await route.fulfill({
        status: 500,
        contentType: "application/json",
        body: '{"error":{"code":"internal_error","message":"Internal error."}}',
      });
    } else await route.continue();
  });
  await page.goto("/dashboard/usage");
  await expect(section.getByRole("status")).toContainText("Loading live stream usage");
  await expect(section.getByRole("alert")).toContainText("The live stream usage could not be loaded", {
    timeout: 20_000,
  });
  fail = false;
  await section.getByRole("button", { name: "Retry" }).click();

  // No key yet: the empty states say what to do.
  await expect(section.getByText("No keys yet")).toBeVisible({ timeout: 20_000 });
  await expect(section.getByText("No stream calls in the last 24 hours")).toBeVisible();

  const created = await page.request.post("/api/portal/keys", {
    data: { name: "Stream desk", env: "test" },
    headers: portalOrigin(baseURL),
  });
  expect(created.status()).toBe(201);
  const { id: keyId, key } = (await created.json()).data as { id: string; key: string };
  await page.reload();
  await expect(section.getByTestId("stream-open-total")).toHaveText("No stream is open now.", { timeout: 20_000 });
  await expect(section.getByTestId(`stream-key-${keyId}`)).toContainText("0 of 2");
  for (const scheme of ["light", "dark"] as const) {
    await setScheme(page, scheme);
    await axeClean(page, `usage page, no stream open (${scheme})`);
  }
  await page.emulateMedia({ colorScheme: "light" });

  // Two streams (Sandbox's limit for a test key) and one event each.
  const base = baseURL ?? "http://127.0.0.1:3100";
  const symbol = uniqueStreamSymbol();
  const q = `events=flow.sweep&symbols=${symbol}`;
  const streams = [await openSse(base, key, q), await openSse(base, key, q)];
  for (const s of streams) {
    expect(s.res.status).toBe(200);
    await s.waitFor("the stream to open", () => s.comments.includes(": stream open"));
  }
  const over = await fetch(`${base}/api/v1/stream?${q}`, { headers: { authorization: `Bearer ${key}` } });
  expect(over.status).toBe(429);
  await new Promise((r) => setTimeout(r, 1500)); // the hub has its cursor
  const sql = e2eDatabase();
  try {
    await storeFlowEvent(sql, symbol, "sweep", 125_000, `e2e:${symbol}`);
  } finally {
    await sql.end();
  }
  for (const s of streams) await s.waitFor("the event", () => s.events.length >= 1, 15_000);

  const row = section.getByTestId(`stream-key-${keyId}`);
  await expect(row).toContainText("2 of 2", { timeout: 20_000 });
  await expect(row).toContainText("At limit");
  await expect(section.getByTestId("stream-open-total")).toHaveText("2 streams open now.");
  const metered = section.getByRole("table", { name: "Metered stream calls" });
  await expect(metered.getByRole("row").filter({ hasText: "Events delivered" })).toHaveCount(2, { timeout: 20_000 });
  // The two openings and the refused third are calls of the stream's route too.
  await expect(metered.getByRole("row").filter({ hasText: "Stream opened" })).toHaveCount(2);
  await expect(metered.getByRole("row").filter({ hasText: "Opening refused" })).toContainText("rate_limit_exceeded");
  await expect(section.getByText("Events delivered today").locator("..")).toContainText("2");
  await expect(section.getByText("Streams opened today").locator("..")).toContainText("2");

  for (const scheme of ["light", "dark"] as const) {
    await setScheme(page, scheme);
    await axeClean(page, `usage page, streams open (${scheme})`);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, { path: info.outputPath(`usage-stream-1280-${scheme}.png`), fullPage: true });
    await screenshot(section, { path: info.outputPath(`stream-section-1280-${scheme}.png`) });
  }
  await page.setViewportSize({ width: 375, height: 900 });
  await section.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  expect(await sidewaysScrollers(page)).toEqual([]);
  await screenshot(page, { path: info.outputPath("usage-stream-375-dark.png"), fullPage: true });
  await screenshot(section, { path: info.outputPath("stream-section-375-dark.png") });
  await setScheme(page, "light");
  await screenshot(page, { path: info.outputPath("usage-stream-375-light.png"), fullPage: true });
  await screenshot(section, { path: info.outputPath("stream-section-375-light.png") });

  // Leaving frees the slots at once: the page follows within its 5 s refresh.
  for (const s of streams) s.close();
  await expect(section.getByTestId("stream-open-total")).toHaveText("No stream is open now.", { timeout: 20_000 });
  await expect(row).toContainText("0 of 2");
});
