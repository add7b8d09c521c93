/**
 * A team in the browser with real mail (the e2e run's SMTP server, e2e/serve.mjs): the Owner invites a Developer, the
 * Developer accepts (signing up on the way), creates a test key, cannot create a live key or change the plan (the page
 * hides it and the route answers 403), and is removed: their next request is signed out. The Owner deletes an account
 * from the danger zone (typing its name or e-mail): its key stops working and the Owner is signed out. Axe clean in
 * light and dark at 1280 and 375 px on the team page, its invite and delete dialogs and the invitation page.
 */
import { randomBytes } from "node:crypto";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { e2eMailbox } from "../tests/helpers/e2e-mailbox";
import { portalOrigin, signUpAndSignIn } from "../tests/helpers/portal";
import { invitationLink } from "../tests/helpers/team";
import { axeClean, setScheme } from "./helpers/playground";
import { sidewaysScrollers } from "./helpers/page-checks";
import { watchOtherHosts } from "./helpers/same-host";
import { screenshot } from "./helpers/screenshot";

const mailbox = e2eMailbox(); // every message the e2e server sent (e2e/serve.mjs)

const WIDTHS = [1280, 375] as const;

/** Axe in both themes at both widths, no sideways scroll, a screenshot of each for a person to look at. */
async function checkLooks(page: Page, name: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    for (const scheme of ["light", "dark"] as const) {
      await setScheme(page, scheme);
      await axeClean(page, `${name} ${scheme} ${width}px`);
      await screenshot(page, { path: test.info().outputPath(`${name}-${width}-${scheme}.png`), fullPage: true });
    }
    expect(await sidewaysScrollers(page), `${name} at ${width}px`).toEqual([]);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      `${name} page scrolls sideways at ${width}px`,
    ).toBe(true);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function newPage(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL });
  const foreign = await watchOtherHosts(context, baseURL);
  return { context, page: await context.newPage(), foreign };
}

test("an Owner invites a Developer, who joins, works with test keys only, and is signed out once removed", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(300_000);
  const owner = await newPage(browser, baseURL);
  const dev = await newPage(browser, baseURL);
  const devEmail = `developer_${randomBytes(5).toString("hex")}@example.com`;
  const devPassword = "a long enough password";

  // The Owner invites through the page.
  const ownerUser = await signUpAndSignIn(owner.page.request, baseURL);
  await owner.page.goto("/dashboard/team");
  await expect(owner.page.getByRole("heading", { name: "Team", level: 1 })).toBeVisible();
  await expect(owner.page.getByRole("row")).toHaveCount(2); // the header and the Owner
  await checkLooks(owner.page, "team-owner");
  await owner.page.getByRole("button", { name: "Invite member" }).click();
  const dialog = owner.page.getByRole("dialog", { name: "Invite member" });
  await dialog.getByLabel("E-mail").fill(devEmail);
  await dialog.getByLabel("Role").selectOption({ label: "Developer" });
  await expect(dialog.getByLabel("Role").locator("option")).toHaveText(["Owner", "Admin", "Developer", "Viewer"]);
  await checkLooks(owner.page, "team-invite-dialog");
  await dialog.getByRole("button", { name: "Send invitation" }).click();
  await expect(owner.page.getByRole("status").filter({ hasText: "Invitation mailed" })).toHaveText(
    `Invitation mailed to ${devEmail}.`,
  );
  await expect(owner.page.getByRole("listitem").filter({ hasText: devEmail })).toContainText("Developer"); // pending

  // The Developer opens the mailed link, signs up on the way and lands on the dashboard.
  const link = await invitationLink(mailbox, devEmail);
  await dev.page.goto(link);
  await expect(dev.page.getByText(/You are invited to join .* as Developer/)).toBeVisible();
  await checkLooks(dev.page, "invite-accept");
  await dev.page.getByLabel("Password").fill(devPassword);
  await dev.page.getByLabel("I accept the terms of use").check();
  await dev.page.getByRole("button", { name: "Accept invitation" }).click();
  await expect(dev.page).toHaveURL(/\/dashboard$/);
  await expect(dev.page.getByText("(Developer")).toBeVisible();

  // A test key: yes. A live key: not offered, and the route refuses it.
  await dev.page.goto("/dashboard/keys");
  const form = dev.page.getByRole("form", { name: "Create a key" });
  await expect(form.getByLabel(/^Live/)).toHaveCount(0);
  await form.getByLabel("Name").fill("developer key");
  await form.getByRole("button", { name: "Create key" }).click();
  await expect(dev.page.getByText(/svc_test_/).first()).toBeVisible();
  const headers = portalOrigin(baseURL);
  const live = await dev.page.request.post("/api/portal/keys", { data: { name: "live", env: "live" }, headers });
  expect(live.status()).toBe(403);
  expect(((await live.json()) as { error: { message: string } }).error.message).toMatch(/Developer/);

  // The plan: shown, not changeable; the route refuses.
  await dev.page.goto("/dashboard/plan");
  await expect(dev.page.getByText("Only the account's Owner can change the plan.")).toBeVisible();
  await expect(dev.page.getByRole("button", { name: /change plan|switch to/i })).toHaveCount(0);
  const plan = await dev.page.request.put("/api/portal/plan", { data: { plan: "pro" }, headers });
  expect(plan.status()).toBe(403);

  // The Developer's team view: read only, no danger zone; deleting the account is the Owner's (403 even when confirmed).
  await dev.page.goto("/dashboard/team");
  await expect(dev.page.getByRole("button", { name: "Invite member" })).toHaveCount(0);
  await expect(dev.page.getByRole("button", { name: "Delete account" })).toHaveCount(0);
  const deletion = await dev.page.request.delete("/api/portal/accounts/current", {
    data: { confirm: ownerUser.email },
    headers,
  });
  expect(deletion.status()).toBe(403);
  expect(((await deletion.json()) as { error: { message: string } }).error.message).toMatch(/Developer.*Owner/);
  await checkLooks(dev.page, "team-developer");

  // The Owner removes the Developer, confirming in a dialog that names them.
  await owner.page.reload();
  const row = owner.page.locator(`tr[data-member="${devEmail}"]`);
  await expect(row).toContainText("Developer");
  await expect(row).toContainText(ownerUser.email); // who invited them
  await owner.page.getByRole("button", { name: `Remove ${devEmail}` }).click();
  const confirm = owner.page.getByRole("dialog", { name: `Remove ${devEmail}?` });
  await expect(confirm).toContainText("every session of theirs ends at once");
  await confirm.getByRole("button", { name: "Remove member" }).click();
  await expect(row).toHaveCount(0);

  // The Developer's very next request is signed out.
  const after = await dev.page.request.get("/api/portal/keys");
  expect(after.status()).toBe(401);
  await dev.page.goto("/dashboard/keys");
  await expect(dev.page).toHaveURL(/\/signin\?callbackUrl=/);

  expect([...owner.foreign, ...dev.foreign], "requests to other hosts").toEqual([]);
  await owner.context.close();
  await dev.context.close();
});

test("the Owner deletes the account from the danger zone: keys stop working and the Owner is signed out", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const owner = await newPage(browser, baseURL);
  const user = await signUpAndSignIn(owner.page.request, baseURL);
  const headers = portalOrigin(baseURL);
  const created = await owner.page.request.post("/api/portal/keys", { data: { name: "doomed", env: "test" }, headers });
  expect(created.status()).toBe(201);
  const key = ((await created.json()) as { data: { key: string } }).data.key;
  const summary = () =>
    owner.page.request.get("/api/v1/ticker/AAPL/summary", { headers: { authorization: `Bearer ${key}` } });
  expect((await summary()).status()).toBe(200);

  await owner.page.goto("/dashboard/team");
  await expect(owner.page.getByRole("heading", { name: "Danger zone" })).toBeVisible();
  await owner.page.getByRole("button", { name: "Delete account" }).click();
  const dialog = owner.page.getByRole("dialog", { name: `Delete ${user.email}?` });
  await expect(dialog).toContainText("1 API key is revoked");
  await expect(dialog).toContainText("You are signed out and lose access");
  const confirm = dialog.getByRole("button", { name: "Delete account" });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(`Type ${user.email} to confirm`).fill("not the account");
  await expect(confirm).toBeDisabled();
  await checkLooks(owner.page, "team-delete-dialog");
  await dialog.getByLabel(`Type ${user.email} to confirm`).fill(user.email.toUpperCase());
  await confirm.click();

  await expect(owner.page).toHaveURL(/\/signin\?deleted=1$/, { timeout: 30_000 });
  await expect(owner.page.getByRole("status")).toContainText("The account was deleted");
  expect((await owner.page.request.get("/api/portal/keys")).status()).toBe(401);
  // The key cache refreshes within 5 s on every server: then the key is refused as revoked.
  await expect.poll(async () => (await summary()).status(), { timeout: 10_000 }).toBe(401);
  expect(owner.foreign, "requests to other hosts").toEqual([]);
  await owner.context.close();
});
