import { axe } from "./helpers/axe";
import { expect, test } from "@playwright/test";
import { signUpAndSignIn } from "../tests/helpers/portal";
import { watchOtherHosts } from "./helpers/same-host";
import { createKey } from "./helpers/playground";
import { screenshot } from "./helpers/screenshot";
import { referenceRendered } from "./helpers/page-checks";

// Its tests share nothing: Playwright may spread them over the workers (the light and dark scans are the suite's longest).
test.describe.configure({ mode: "parallel" });

const PUBLIC = ["/", "/pricing", "/docs", "/docs/guides/limits"];
const SIGNED_IN = ["/dashboard/usage", "/dashboard/logs", "/dashboard/playground"];

/** Waits until the page has finished loading its data (no loading status left). */
async function settled(page: import("@playwright/test").Page) {
  await page.waitForLoadState("load");
  await expect(page.getByRole("status").filter({ hasText: /^Loading/ })).toHaveCount(0, { timeout: 20_000 });
}

for (const width of [1280, 375]) {
  test(`no serious or critical axe violation and no request to another host at ${width} px`, async ({
    page,
    context,
    baseURL,
  }, info) => {
    // Every page with axe in one test: on a saturated 2-core runner the 1280 px pass took over 180 s (28 Nov 2026).
    test.setTimeout(360_000);
    await page.setViewportSize({ width, height: 900 });
    const foreign = await watchOtherHosts(context, baseURL);
    await signUpAndSignIn(page.request, baseURL);
    const key = await createKey(page.request, baseURL);
    await page.request.post("/api/portal/playground/call", {
      data: { operation: "GET /api/v1/data/yield-curve", keyId: key.id },
      headers: { origin: new URL(baseURL!).origin },
    });
    for (const path of [...PUBLIC, ...SIGNED_IN]) {
      await page.goto(path);
      await settled(page);
      if (path === "/docs") {
        await referenceRendered(page);
        // Scalar renders sections as they scroll into view: scroll through so axe sees all of them.
        for (let i = 0; i < 40; i++) await page.mouse.wheel(0, 1500);
        await page.waitForTimeout(500);
      }
      const results = await axe(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
      const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(
        bad.map((v) => `${path}: ${v.id} (${v.nodes.length}) ${v.nodes[0]?.target}`),
        path,
      ).toEqual([]);
      if (width === 375) {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${path} scrolls sideways at 375 px`).toBeLessThanOrEqual(0);
        await screenshot(page, {
          path: info.outputPath(`${path.replace(/\W+/g, "_") || "home"}-375.png`),
          fullPage: false,
        });
      }
    }
    expect(foreign).toEqual([]);
  });
}

test("landing and pricing show both families' limits from the plan rows", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("table", { name: /Family A limits/ }).getByRole("row", { name: /^Pro/ })).toContainText(
    "100,000",
  );
  await expect(
    page.getByRole("table", { name: /Family B limits/ }).getByRole("row", { name: /^Enterprise/ }),
  ).toContainText("1,000,000");
  await page.goto("/pricing");
  const plans = page.getByRole("list", { name: "Plans" });
  await expect(plans.getByRole("heading", { name: "Starter" })).toBeVisible();
  await expect(plans).toContainText("svc_sk_live_ keys");
  await expect(
    page.getByRole("table", { name: /Family B limits/ }).getByRole("row", { name: /^Sandbox/ }),
  ).toContainText("10 KiB");
});
