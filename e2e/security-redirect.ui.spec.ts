/** After sign-in the browser follows only same-origin callback paths (an open redirect in the review). */
import { expect, test } from "@playwright/test";
import { signUpAndSignIn } from "../tests/helpers/portal";

test("sign-in follows only same-origin callback paths", async ({ page, baseURL, playwright }) => {
  const ctx = await playwright.request.newContext({ baseURL });
  const user = await signUpAndSignIn(ctx, baseURL);
  await ctx.dispose();
  await page.goto("/signin?callbackUrl=/%5C127.0.0.1:3291/x");
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`^${baseURL}/dashboard`));
});
