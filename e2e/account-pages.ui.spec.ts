/** The account pages and the dashboard shell: no serious or critical axe violation, usable at 375 px and by keyboard. */
import { axe } from "./helpers/axe";
import { expect, test, type Page } from "@playwright/test";
import { signUpAndSignIn } from "../tests/helpers/portal";
import { screenshot } from "./helpers/screenshot";

async function expectAccessible(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator("main h1")).toBeVisible();
  const results = await axe(page).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    path,
  ).toEqual([]);
}

const PUBLIC_PAGES = [
  "/signup",
  "/signin",
  "/forgot-password",
  "/reset-password?token=abc",
  "/reset-password",
  "/verify-email",
  "/verify-email?token=forged-token-forged-token",
  "/terms",
];

test("account pages have no serious or critical axe violation (signed out)", async ({ page }) => {
  for (const path of PUBLIC_PAGES) await expectAccessible(page, path);
});

test("the dashboard and terms pages have no serious or critical axe violation (signed in)", async ({
  page,
  baseURL,
}) => {
  await signUpAndSignIn(page.request, baseURL);
  for (const path of ["/dashboard", "/terms"]) await expectAccessible(page, path);
});

test("the header shows Sign in / Sign up, then the user's e-mail and Sign out, which signs out", async ({
  page,
  baseURL,
}) => {
  await page.goto("/");
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: "Sign in" })).toBeVisible();
  await expect(header.getByRole("link", { name: "Sign up" })).toBeVisible();
  const user = await signUpAndSignIn(page.request, baseURL);
  await page.goto("/");
  await expect(header.getByText(user.email)).toBeVisible();
  await header.getByRole("button", { name: "Sign out" }).click();
  await expect(header.getByRole("link", { name: "Sign in" })).toBeVisible();
  expect(new URL(page.url()).origin, "signed out on the origin the browser was on").toBe(new URL(baseURL!).origin);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fdashboard$/);
});

test("the dashboard at 375 px: nav, disclaimer and overview fit without sideways scrolling; keyboard reaches the nav", async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await signUpAndSignIn(page.request, baseURL);
  await page.goto("/dashboard");
  const nav = page.getByRole("navigation", { name: "Dashboard" });
  for (const name of ["Overview", "Keys", "Access requests", "Plan", "Usage", "Playground", "Webhooks"])
    await expect(nav.getByRole("link", { name })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("complementary", { name: "Disclaimer" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Resend verification mail" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await screenshot(page, { path: "test-results/dashboard-375.png", fullPage: true });
  // Keyboard: Tab moves through the page to the dashboard nav with a visible focus ring.
  let reached = false;
  for (let i = 0; i < 20 && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = await nav.getByRole("link", { name: "Keys" }).evaluate((el) => el === document.activeElement);
  }
  expect(reached).toBe(true);
  const outline = await nav.getByRole("link", { name: "Keys" }).evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).not.toBe("none");
});

test("signed-in pages at full width, for the record", async ({ page, baseURL }) => {
  await signUpAndSignIn(page.request, baseURL);
  await page.goto("/dashboard");
  await screenshot(page, { path: "test-results/dashboard.png", fullPage: true });
  await page.goto("/terms");
  await screenshot(page, { path: "test-results/terms.png", fullPage: true });
});

test("no page trips the Content-Security-Policy (scripts carry the nonce, nothing from another host)", async ({
  page,
  baseURL,
}) => {
  const violations: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy|Refused to (load|execute|apply)/i.test(msg.text()))
      violations.push(`${page.url()}: ${msg.text()}`);
  });
  for (const path of ["/", "/docs", "/signin", "/signup", "/forgot-password", "/terms"]) {
    await page.goto(path);
    await expect(page.locator("main h1").first()).toBeVisible(); // /docs: the reference renders its own h1 too
  }
  // The resend goes to the e2e run's SMTP sink (e2e/serve.mjs).
  await signUpAndSignIn(page.request, baseURL);
  await page.goto("/dashboard");
  await page.getByRole("button", { name: "Resend verification mail" }).click();
  await expect(page.locator("main").getByText("A new link is on its way; earlier links no longer work.")).toBeVisible();
  expect(violations).toEqual([]);
});
