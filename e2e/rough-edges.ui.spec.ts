/**
 * Issue 28's rough edges that need a browser: at 375 px nothing on landing and pricing is cut off (no text or table
 * clipped or pushed past the screen's edge); on phones the current tab of a row of tabs is scrolled into view; the docs
 * show the reference within the first screen at 1280 × 800. Each page in light and dark: axe clean, screenshots.
 */
import { axe } from "./helpers/axe";
import { expect, test, type Page } from "@playwright/test";
import { e2eCli } from "../tests/helpers/e2e-cli";
import { signUpAndSignIn } from "../tests/helpers/portal";
import { cutOff, referenceRendered } from "./helpers/page-checks";
import { screenshot } from "./helpers/screenshot";

async function axeClean(page: Page, what: string) {
  const results = await axe(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    bad.map((v) => `${v.id} (${v.nodes.length}) ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    what,
  ).toEqual([]);
}

for (const scheme of ["light", "dark"] as const) {
  test(`landing and pricing at 375 px in ${scheme}: no text or table cut off, no sideways scrolling`, async ({
    page,
  }, info) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 812 });
      for (const path of ["/", "/pricing"]) {
        await page.goto(path);
        await expect(page.locator("h1")).toBeVisible();
        const what = `${path} at ${width} px in ${scheme}`;
        expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), what).toBe(0);
        expect(await cutOff(page), what).toEqual([]);
        await axeClean(page, what);
        const name = path === "/" ? "landing" : "pricing";
        await screenshot(page, { path: info.outputPath(`${name}-${width}-${scheme}.png`), fullPage: true });
      }
    }
    // At 375 px every plan's limits are there to read, none past the edge: Enterprise's webhooks included.
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto("/pricing");
    const b = page.getByRole("region", { name: "Family B limits" });
    await expect(b.getByRole("listitem").filter({ hasText: "Enterprise" })).toContainText("WebhooksYes");
    await expect(page.getByRole("table")).toHaveCount(0); // the wide tables are for wider screens
  });
}

test("on phones the current tab is scrolled into view, the page is not", async ({ page, baseURL }, info) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 375, height: 812 });
  await signUpAndSignIn(page.request, baseURL);
  for (const [path, nav, tab] of [
    ["/dashboard/plan", "Dashboard", "Plan"],
    ["/dashboard/team", "Dashboard", "Team"],
    ["/docs/guides/metrics", "Guides", "Metric definitions"],
  ] as const) {
    await page.goto(path);
    const current = page.getByRole("navigation", { name: nav }).getByRole("link", { name: tab, exact: true });
    await expect(current).toHaveAttribute("aria-current", "page");
    await expect(current).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => window.scrollY), `${path}: the page itself stays at the top`).toBe(0);
    await screenshot(page, { path: info.outputPath(`tab-${tab.replace(/\W+/g, "-")}-375.png`) });
  }
  // The first tab of the row is where it was: nothing moves when the current tab is in view already.
  await page.goto("/dashboard");
  const overview = page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Overview" });
  await expect(overview).toBeInViewport({ ratio: 1 });
});

for (const scheme of ["light", "dark"] as const) {
  test(`the docs show the reference within the first screen at 1280 × 800 in ${scheme}`, async ({ page }, info) => {
    test.setTimeout(90_000);
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/docs");
    const reference = page.getByTestId("scalar-reference");
    const title = await referenceRendered(page);
    await expect(title).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    // The reference's first words under its title are on the first screen too, not only its heading.
    const top = await reference.evaluate((el) => el.getBoundingClientRect().top);
    expect(top, "the reference starts in the upper half of the first screen").toBeLessThan(400);
    // The quick start is still one click away, and a keyboard opens it.
    await screenshot(page, { path: info.outputPath(`docs-1280x800-${scheme}.png`) });
    await axeClean(page, `/docs at 1280 × 800 in ${scheme}`);
    const quickStart = page.getByRole("region", { name: "Quick start" });
    await quickStart.locator("summary").focus();
    await page.keyboard.press("Enter");
    await expect(quickStart.getByLabel("curl command", { exact: true })).toBeVisible();
    await screenshot(page, { path: info.outputPath(`docs-1280x800-quick-start-${scheme}.png`) });
    await axeClean(page, `/docs with the quick start open in ${scheme}`);
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto("/docs");
    await referenceRendered(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    await screenshot(page, { path: info.outputPath(`docs-375-${scheme}.png`) });
  });
}

test("a deactivated account's person is told so at sign-in; a wrong password still reads 'wrong'", async ({
  page,
  baseURL,
}) => {
  const user = await signUpAndSignIn(page.request, baseURL);
  const off = await e2eCli(baseURL, "account", "deactivate", "--email", user.email);
  expect(off.code, off.stderr).toBe(0);
  await page.context().clearCookies();
  await page.goto("/signin");
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill("not the password at all");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("main").getByRole("alert")).toHaveText("Wrong e-mail or password.");
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("main").getByRole("alert")).toHaveText(
    /^This account is deactivated, so you cannot sign in\./,
  );
  await expect(page).toHaveURL(/\/signin/);
});
