import { expect, test } from "@playwright/test";
import { axe } from "./helpers/axe";
import { portalOrigin, signUpAndSignIn } from "../tests/helpers/portal";
import { e2eCli, verifyEmail } from "../tests/helpers/e2e-cli";

test("access request → approve via the CLI → the requester sees the svc_sk_live_ key once and it works (Starter)", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const user = await signUpAndSignIn(page.request, baseURL);
  await verifyEmail(baseURL, user.email);

  await page.goto("/dashboard/access");
  await expect(page.getByText("svc_sk_live_ keys need a paid plan (Starter or higher)")).toBeVisible();
  await page.getByLabel("Company").fill("E2E Research Ltd");
  await page.getByLabel("Use case").fill("Internal dashboards of options positioning for our analysts.");
  await page.getByLabel("Expected volume").selectOption("1k_10k");
  await page.getByRole("button", { name: "Request access" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Starter or higher" })).toContainText(
    "this account is on Sandbox",
  );

  await page.goto("/dashboard/plan");
  await expect(page.getByText("Payment collection is out of scope")).toBeVisible();
  await page.getByLabel(/^Starter/).check();
  await page.getByRole("button", { name: "Change plan" }).click();
  await expect(page.getByRole("status")).toContainText("Plan changed to Starter");
  await expect(page.getByText(/Your account is on\s+Starter/)).toBeVisible();

  await page.goto("/dashboard/access");
  await page.getByLabel("Company").fill("E2E Research Ltd");
  await page.getByLabel("Use case").fill("Internal dashboards of options positioning for our analysts.");
  await page.getByLabel("Expected volume").selectOption("1k_10k");
  await page.getByRole("button", { name: "Request access" }).click();
  await expect(page.getByText("Pending", { exact: true })).toBeVisible();
  await expect(page.getByText(/waiting 0 business days of our 1–3 business-day promise/)).toBeVisible();

  const list = await e2eCli(baseURL, "access", "list");
  expect(list.code, list.stderr).toBe(0);
  const request = (JSON.parse(list.stdout) as { id: string; email: string }[]).find((r) => r.email === user.email)!;
  const approved = await e2eCli(baseURL, "access", "approve", "--id", request.id);
  expect(approved.code, approved.stderr).toBe(0);
  expect(approved.stdout).not.toMatch(/svc_sk_live_[0-9A-Za-z]{30}/);

  await page.reload();
  await expect(page.getByText("Approved", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Show my key (once)" }).click();
  const shown = page.getByTestId("new-key");
  await expect(shown).toBeVisible();
  const key = await shown.inputValue();
  expect(key).toMatch(/^svc_sk_live_[0-9A-Za-z]{30}$/);
  await page.getByRole("button", { name: "I have saved the key" }).click();
  await page.reload();
  await expect(page.getByRole("button", { name: "Show my key (once)" })).toHaveCount(0);
  await expect(page.getByText(/was shown once/)).toBeVisible();
  const again = await page.request.post(`/api/portal/access-requests/${request.id}/key`, {
    headers: portalOrigin(baseURL),
  });
  expect(again.status()).toBe(409);

  // The live store gets a Treasury curve through the operator's import; the live key then reads it.
  const imported = await e2eCli(
    baseURL,
    "import",
    "treasury",
    "--file",
    "tests/fixtures/import/treasury-good.csv",
    "--env",
    "live",
  );
  expect(imported.code, imported.stderr).toBe(0);
  await expect
    .poll(
      async () => (await page.request.get("/api/v1/data/yield-curve", { headers: { "x-service-key": key } })).status(),
      { timeout: 30_000 },
    )
    .toBe(200);
  const res = await page.request.get("/api/v1/data/yield-curve", { headers: { "x-service-key": key } });
  expect((await res.json()).isMockData).toBe(false);
});

for (const path of ["/dashboard/keys", "/dashboard/access", "/dashboard/plan"]) {
  test(`axe: ${path} has no serious or critical violations`, async ({ page, baseURL }) => {
    await signUpAndSignIn(page.request, baseURL);
    await page.goto(path);
    await expect(page.locator("h1")).toBeVisible();
    const results = await axe(page).analyze();
    const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  });
}
