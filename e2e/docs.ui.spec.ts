import { expect, test } from "@playwright/test";

test("docs shows a loading state, then the reference", async ({ page }) => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  await page.route("**/api/v1/openapi.json", async (route) => {
    await gate;
    await route.continue();
  });
  await page.goto("/docs");
  await expect(page.getByRole("status")).toContainText("Loading");
  release();

  await expect(page.getByRole("heading", { level: 3, name: "/api/v1/options-flow" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 3, name: "/api/v1/ticker/{symbol}/summary" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 3, name: "/api/v1/ai/symbol/{ticker}/no-trade" })).toBeVisible();
  await expect(page.getByRole("status")).toHaveCount(0);

  const plans = page.getByRole("table", { name: "Plans" });
  const sandbox = plans.getByRole("row", { name: /^Sandbox/ });
  await expect(sandbox.getByRole("cell").nth(1)).toHaveText("10");
  await expect(sandbox.getByRole("cell").nth(2)).toHaveText("100");

  const errors = page.getByRole("table", { name: "Error codes" });
  await expect(errors.getByRole("rowheader", { name: "endpoint_pending_licensing" })).toBeVisible();
  await expect(page.getByRole("complementary", { name: "Disclaimer" })).toContainText("not financial advice");
});

test("an operation expands with the keyboard", async ({ page }) => {
  await page.goto("/docs");
  const section = page.getByRole("region", { name: "/api/v1/options-flow" });
  const summary = section.locator("summary").first();
  await expect(summary).toBeVisible();
  await expect(section.getByRole("heading", { name: "Parameters" })).toBeHidden();
  await summary.focus();
  await expect(summary).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(section.locator("details").first()).toHaveAttribute("open", "");
  await expect(section.getByRole("heading", { name: "Parameters" })).toBeVisible();
  await expect(section.getByRole("heading", { name: "Responses" })).toBeVisible();
  await expect(section).toContainText("403");
});

test("a failed load shows an alert with a working retry", async ({ page }) => {
  let fail = true;
  await page.route("**/api/v1/openapi.json", (route) =>
    fail ? route.fulfill({ status: 500, body: "{}", contentType: "application/json" }) : route.continue(),
  );
  await page.goto("/docs");
  const alert = page.getByRole("alert").filter({ hasText: "could not be loaded" });
  await expect(alert).toBeVisible();
  fail = false;
  await alert.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByRole("heading", { level: 3, name: "/api/v1/options-flow" })).toBeVisible();
});
