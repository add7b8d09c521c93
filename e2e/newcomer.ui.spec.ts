/** A newcomer's path from the landing page to a first 200, counted: fewer than 10 clicks and fewer than 6 fields. */
import { randomBytes } from "node:crypto";
import { expect, test, type Locator } from "@playwright/test";

test("landing → sign-up → key → first 200 from the playground", async ({ page }) => {
  let clicks = 0;
  let fields = 0;
  const click = async (l: Locator) => {
    clicks++;
    await l.click();
  };
  const fill = async (l: Locator, value: string) => {
    fields++;
    await l.fill(value);
  };

  await page.goto("/");
  const cta = page.getByRole("main").getByRole("link", { name: "Get a free test key" });
  await expect(cta).toBeInViewport(); // above the fold
  await click(cta);
  await expect(page).toHaveURL(/\/signup$/);
  await fill(page.getByLabel("E-mail"), `newcomer_${randomBytes(5).toString("hex")}@example.com`);
  await fill(page.getByLabel("Password"), "a long enough password");
  await click(page.getByLabel("I accept the terms of use"));
  await click(page.getByRole("button", { name: "Create account" }));
  await expect(page).toHaveURL(/\/dashboard$/);

  await click(page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Playground" }));
  // No key is made behind the newcomer's back: they create their test key themselves, and see it once.
  await expect(page.getByText("You have no active key you can use here yet.")).toBeVisible();
  await click(page.getByRole("button", { name: "Create a test key" }));
  await expect(page.getByTestId("new-key")).toHaveValue(/^svc_test_/);
  await click(page.getByRole("button", { name: "Send request" }));
  const response = page.getByTestId("playground-response");
  await expect(response.getByTestId("pg-status")).toHaveText("HTTP 200");
  await expect(response.getByText(/Disclaimer in the response/)).toBeVisible();
  // The key is chosen on the playground by name and prefix, and listed with the account's keys: one key, no other.
  await expect(page.locator("#pg-key option:checked")).toHaveText(/^Playground \(svc_test_\w+…, test\)$/);
  expect(clicks).toBeLessThan(10);
  expect(fields).toBeLessThan(6);

  await page.goto("/dashboard/keys");
  await expect(page.getByRole("rowheader", { name: "Playground", exact: true })).toBeVisible();
});
