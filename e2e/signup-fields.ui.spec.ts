/** The sign-up form names every invalid field in plain words next to it, and marks the required ones. */
import { expect, test } from "@playwright/test";

test("an empty sign-up names e-mail, password and terms, each in plain words; required fields are marked", async ({
  page,
}) => {
  await page.goto("/signup");
  await expect(page.locator('label[for="email"]')).toContainText("(required)");
  await expect(page.locator('label[for="password"]')).toContainText("(required)");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.locator("#email-error")).toHaveText("Enter your e-mail address.");
  await expect(page.locator("#password-error")).toHaveText("Use 10 to 200 characters for the password.");
  await expect(page.locator("#acceptTerms-error")).toHaveText("Accept the terms of use to create an account.");
  await expect(page.locator("main")).not.toContainText("''");
});
