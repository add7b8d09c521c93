/**
 * Accounts in the browser with real mail: the server sends to the loopback SMTP server that e2e/serve.mjs runs
 * for the whole e2e run (tests/helpers/e2e-mailbox.ts reads what it received). Sign-up → verification mail → link → verified; resend; password reset;
 * throttled sign-in; a new terms version asked before the dashboard.
 */
import { expect, test, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { linkIn } from "../tests/helpers/mailbox";
import { e2eMailbox } from "../tests/helpers/e2e-mailbox";
import { e2eDatabase } from "../tests/helpers/e2e-env";
import { signIn, signUpAndSignIn } from "../tests/helpers/portal";

const mailbox = e2eMailbox(); // every message the e2e server sent (e2e/serve.mjs)

const newEmail = (tag: string) => `${tag}_${randomBytes(5).toString("hex")}@example.com`;

async function signUpInForm(page: Page, email: string, password: string) {
  await page.goto("/signup");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByLabel("I accept the terms of use").check();
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

test("sign up → verification mail → open the link → verified", async ({ page }) => {
  const email = newEmail("verify");
  await signUpInForm(page, email, "a long enough password");
  await expect(page.getByRole("heading", { name: "Verify your e-mail address" })).toBeVisible();
  const link = linkIn(await mailbox.waitFor(email));
  expect(new URL(link).pathname).toBe("/verify-email");
  await page.goto("/dashboard?verify=required"); // where pages needing a verified address send the user
  await expect(page.locator("main").getByRole("alert")).toHaveText(
    "The page you opened needs a verified e-mail address.",
  );
  await page.goto(link);
  await expect(page.locator("main").getByRole("status")).toContainText(`${email} is verified`);
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Verify your e-mail address" })).toHaveCount(0);
  await expect(page.getByText("Verified", { exact: true })).toBeVisible();
  // The link works once.
  await page.goto(link);
  await expect(page.locator("main").getByRole("alert")).toContainText("invalid, already used or expired");
});

test("resend from the dashboard sends a new link and the old one stops working", async ({ page, baseURL }) => {
  const user = await signUpAndSignIn(page.request, baseURL, newEmail("resend"));
  const first = linkIn(await mailbox.waitFor(user.email));
  await page.goto("/dashboard");
  await page.getByRole("button", { name: "Resend verification mail" }).click();
  await expect(page.getByText("A new link is on its way; earlier links no longer work.")).toBeVisible();
  await expect.poll(() => mailbox.messages.filter((m) => m.to.includes(user.email)).length).toBe(2);
  const second = linkIn(mailbox.messages.filter((m) => m.to.includes(user.email))[1]);
  expect(second).not.toBe(first);
  await page.goto(first);
  await expect(page.locator("main").getByRole("alert")).toContainText("invalid, already used or expired");
  await page.goto(second);
  await expect(page.locator("main").getByRole("status")).toContainText("is verified");
});

test("password reset by link ends older sessions; an unknown address gets the same answer and no mail", async ({
  page,
  baseURL,
  playwright,
}) => {
  const user = await signUpAndSignIn(page.request, baseURL, newEmail("reset"));
  const elsewhere = await playwright.request.newContext({ baseURL });
  await signIn(elsewhere, user.email, user.password);
  await page.request.post("/api/auth/signout", {
    form: { csrfToken: ((await (await page.request.get("/api/auth/csrf")).json()) as { csrfToken: string }).csrfToken },
  });
  const stranger = newEmail("nobody");
  for (const email of [stranger, user.email]) {
    await page.goto("/forgot-password");
    await page.getByLabel("E-mail").fill(email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.locator("main").getByRole("status")).toContainText(
      `If an account exists for ${email}, a link to choose a new password is on its way.`,
    );
  }
  const resetMail = await mailbox.waitFor(user.email).then(async () => {
    await expect
      .poll(() => mailbox.messages.filter((m) => m.to.includes(user.email) && /Reset your password/.test(m.raw)).length)
      .toBe(1);
    return mailbox.messages.find((m) => m.to.includes(user.email) && /Reset your password/.test(m.raw))!;
  });
  expect(mailbox.messages.some((m) => m.to.includes(stranger))).toBe(false);
  await page.goto(linkIn(resetMail));
  await page.getByLabel("New password").fill("short");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByText("Use 10 to 200 characters for the password.")).toBeVisible();
  await page.getByLabel("New password").fill("my brand new password");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.locator("main").getByRole("status")).toContainText("Your password has been changed.");
  const stale = await elsewhere.get("/dashboard", { maxRedirects: 0 });
  expect(stale.headers().location ?? "").toMatch(/\/signin\?callbackUrl=%2Fdashboard$/);
  await elsewhere.dispose();
  await page.goto("/signin");
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Password").fill("my brand new password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("failed sign-ins are throttled with the time to wait", async ({ page, baseURL }) => {
  const user = await signUpAndSignIn(page.request, baseURL, newEmail("throttle"));
  await page.context().clearCookies();
  await page.goto("/signin");
  await page.getByLabel("E-mail").fill(user.email);
  for (let i = 0; i < 5; i++) {
    await page.getByLabel("Password").fill(`wrong password ${i}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("main").getByRole("alert")).toHaveText("Wrong e-mail or password.");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  }
  // Even the right password waits now.
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("main").getByRole("alert")).toHaveText(
    /^Too many failed sign-ins\. Wait \d+ minutes? and try again, or reset your password\.$/,
  );
  await expect(page).toHaveURL(/\/signin/);
});

test("a new terms version is asked before the dashboard; accepting is recorded", async ({ page, baseURL }) => {
  const user = await signUpAndSignIn(page.request, baseURL, newEmail("terms"));
  const sql = e2eDatabase();
  try {
    await sql`update users set terms_version = 0 where email = ${user.email}`;
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/terms\?callbackUrl=%2Fdashboard$/);
    await expect(page.getByRole("heading", { name: "Terms of use", exact: true })).toBeVisible();
    const refused = await page.request.post("/api/portal/verify-email/resend", {
      headers: { origin: new URL(baseURL!).origin },
    });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("terms_required");
    await page.goto("/terms?callbackUrl=%2Fdashboard");
    await page.getByRole("button", { name: "Accept the terms" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    const [row] = await sql`select terms_version, terms_accepted_at from users where email = ${user.email}`;
    expect(row.terms_version).toBeGreaterThan(0);
    expect(row.terms_accepted_at).not.toBeNull();
    const audits =
      await sql`select count(*)::int as n from audit_log where action = 'user.accept_terms' and actor_id = (select id::text from users where email = ${user.email})`;
    expect(audits[0].n).toBe(1);
  } finally {
    await sql.end();
  }
});
