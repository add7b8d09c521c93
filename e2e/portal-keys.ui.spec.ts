import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { axe } from "./helpers/axe";
import { signUpAndSignIn } from "../tests/helpers/portal";
import { verifyEmail } from "../tests/helpers/e2e-cli";

const SUMMARY = "/api/v1/ticker/AAPL/summary";

async function apiCall(request: APIRequestContext, key: string, path = SUMMARY) {
  const res = await request.get(path, { headers: { authorization: `Bearer ${key}` } });
  const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
  return { status: res.status(), code: body?.error?.code ?? null };
}

/** Fills the create form and returns the key shown once. */
async function createKey(page: Page, name: string, env: "Test" | "Live" = "Test"): Promise<string> {
  await page.getByLabel("Name").fill(name);
  await page.getByLabel(env, { exact: false }).first().check();
  await page.getByRole("button", { name: "Create key" }).click();
  const shown = page.getByTestId("new-key");
  await expect(shown).toBeVisible();
  return shown.inputValue();
}

const row = (page: Page, name: string) =>
  page.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });

/** Opens the row's actions menu and picks an item (Roll, Revoke). */
async function rowAction(page: Page, name: string, action: "Roll" | "Revoke") {
  await row(page, name)
    .first()
    .getByRole("button", { name: /^Actions for key/ })
    .click();
  await page.getByRole("menuitem", { name: action, exact: true }).click();
}

test("create a test key, copy it once, call the API, revoke: the same call gets 401 invalid_api_key within 5 s", async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(baseURL!).origin });
  await signUpAndSignIn(page.request, baseURL);
  await page.goto("/dashboard/keys");
  await expect(page.getByRole("heading", { name: "API keys" })).toBeVisible();
  const key = await createKey(page, "e2e first key");
  expect(key).toMatch(/^svc_test_[0-9A-Za-z]{30}$/);
  await expect(page.getByText("it is shown only once")).toBeVisible();
  await page.getByRole("button", { name: "Copy" }).click();
  await expect(page.getByText("Copied to the clipboard.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await page.getByRole("button", { name: "I have saved the key" }).click();
  await expect(page.getByTestId("new-key")).toHaveCount(0);
  await page.reload();
  expect(await page.content()).not.toContain(key);
  await expect(row(page, "e2e first key")).toContainText(key.slice(0, 13));

  expect((await apiCall(page.request, key)).status).toBe(200);

  await rowAction(page, "e2e first key", "Revoke");
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Revoke key “e2e first key”?");
  await dialog.getByRole("button", { name: "Revoke key" }).click();
  await expect(row(page, "e2e first key")).toContainText("Revoked");
  await expect
    .poll(() => apiCall(page.request, key), { timeout: 5_000, intervals: [250] })
    .toEqual({ status: 401, code: "invalid_api_key" });
});

test("roll with a 1-hour overlap: both keys work; with 'now': only the new one", async ({ page, baseURL }) => {
  await signUpAndSignIn(page.request, baseURL);
  await page.goto("/dashboard/keys");
  const rollAndRead = async (name: string, overlap: string) => {
    await rowAction(page, name, "Roll");
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel(overlap).check();
    await dialog.getByRole("button", { name: "Roll key" }).click();
    const shown = page.getByTestId("new-key");
    await expect(shown).toBeVisible();
    const rolled = await shown.inputValue();
    await page.getByRole("button", { name: "I have saved the key" }).click();
    return rolled;
  };

  const first = await createKey(page, "overlap key");
  await page.getByRole("button", { name: "I have saved the key" }).click();
  const second = await rollAndRead("overlap key", "1 hour");
  expect(second).not.toBe(first);
  await expect(page.getByText(/Active until .* \(rolled\)/)).toBeVisible();
  expect((await apiCall(page.request, first)).status).toBe(200);
  expect((await apiCall(page.request, second)).status).toBe(200);

  const third = await createKey(page, "instant key");
  await page.getByRole("button", { name: "I have saved the key" }).click();
  expect((await apiCall(page.request, third)).status).toBe(200);
  const fourth = await rollAndRead("instant key", "Now: the old key stops at once");
  // "Now" expires the old key at once in the database; a process that cached it refuses it within the 5 s cache lifetime.
  await expect
    .poll(() => apiCall(page.request, third), { timeout: 5_000, intervals: [250] })
    .toEqual({ status: 401, code: "invalid_api_key" });
  expect((await apiCall(page.request, fourth)).status).toBe(200);
});

test("a live key on the Sandbox plan is refused with the reason and a link to the plan page", async ({
  page,
  baseURL,
}) => {
  const user = await signUpAndSignIn(page.request, baseURL);
  await verifyEmail(baseURL, user.email);
  await page.goto("/dashboard/keys");
  await page.getByLabel("Name").fill("live attempt");
  await page.getByLabel("Live").check();
  await page.getByRole("button", { name: "Create key" }).click();
  const alert = page.getByRole("alert").filter({ hasText: "Pro or Enterprise" });
  await expect(alert).toContainText("this account is on Sandbox");
  await alert.getByRole("link", { name: "Change your plan" }).click();
  await expect(page).toHaveURL(/\/dashboard\/plan$/);
});

test("bad input on the key form: a clear message, nothing created", async ({ page, baseURL }) => {
  await signUpAndSignIn(page.request, baseURL);
  await page.goto("/dashboard/keys");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByText("A key name has 1–80 characters.")).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("No keys yet")).toBeVisible();
});

test("axe: the keys page with a key shown once and the roll dialog open", async ({ page, baseURL }) => {
  await signUpAndSignIn(page.request, baseURL);
  await page.goto("/dashboard/keys");
  await createKey(page, "axe key");
  await rowAction(page, "axe key", "Roll");
  await expect(page.getByRole("dialog")).toBeVisible();
  const results = await axe(page).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
});
