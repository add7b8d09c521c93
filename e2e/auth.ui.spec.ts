import { expect, test } from "@playwright/test";
import { signUpAndSignIn } from "../tests/helpers/portal";
import { screenshot } from "./helpers/screenshot";

test("sign up through the form lands on the dashboard, signed in", async ({ page }) => {
  const email = `form_${Date.now()}@example.com`;
  await page.goto("/signup");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByLabel("I accept the terms of use").check();
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
});

test("sign-up without accepting the terms says so and creates nothing", async ({ page }) => {
  const email = `noterms_${Date.now()}@example.com`;
  await page.goto("/signup");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Accept the terms of use to create an account.")).toBeVisible();
  await page.goto("/signin");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Wrong e-mail or password.")).toBeVisible();
});

test("the dashboard redirects a signed-out visitor to sign-in; the API helper signs in", async ({ page, baseURL }) => {
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fdashboard/);
  const user = await signUpAndSignIn(page.request, baseURL);
  await page.goto("/dashboard");
  await expect(page.getByText(`Signed in as ${user.email}`)).toBeVisible();
});

test("sign-up with an address that already has an account says a message was sent, like any sign-up", async ({
  page,
  playwright,
  baseURL,
}) => {
  const other = await playwright.request.newContext({ baseURL });
  const owner = await signUpAndSignIn(other, baseURL);
  await other.dispose();
  await page.goto("/signup");
  await page.getByLabel("E-mail").fill(owner.email);
  await page.getByLabel("Password").fill("somebody else's password");
  await page.getByLabel("I accept the terms of use").check();
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("status")).toHaveText(
    `We sent a message to ${owner.email}. If you already have an account, it tells you how to sign in or reset your password.`,
  );
  await expect(page).toHaveURL(/\/signup$/);
  await screenshot(page, { path: "test-results/signup-existing-address.png" });
});
