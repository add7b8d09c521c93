import { expect, test } from "@playwright/test";

test("home lists the endpoints from the route table", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Options Research API" })).toBeVisible();
  const endpoints = page.getByRole("list", { name: "Endpoints" });
  await expect(endpoints).toContainText("/api/v1/options-flow");
  await expect(endpoints).toContainText("/api/v1/ai/symbol/{ticker}/no-trade");
  await expect(endpoints).toContainText("/api/v1/health");
  await expect(page.getByRole("heading", { name: "Quick start" })).toBeVisible();
  await expect(page.getByText("$API_KEY")).toBeVisible();
  // The example uses the address the page was reached on, so it works as pasted.
  await expect(page.getByLabel("curl example")).toContainText(
    `${new URL(page.url()).origin}/api/v1/ticker/AAPL/summary`,
  );
  await expect(page.getByRole("link", { name: /full API reference/ })).toHaveAttribute("href", "/docs");
});

test("the footer always shows the disclaimer", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator("footer")).toContainText("not financial advice");
  await page.goto("/docs");
  await expect(page.locator("footer")).toContainText("not financial advice");
});

test("Tab reaches the skip link first; activating it moves focus to main", async ({ page }) => {
  await page.goto("/");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#main")).toBeFocused();
});

test("an unknown page shows the not-found message", async ({ page }) => {
  const res = await page.goto("/no-such-page");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});
