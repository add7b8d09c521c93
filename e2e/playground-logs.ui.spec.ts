/**
 * Issue 28 items 4 and 7: one key from the Keys page to a first 200 in the playground, chosen there by name (no second
 * key, no secret pasted); the Logs page shows the call, finds it by request id, shows an error row's body, and tails
 * new calls live until paused. Axe in light and dark at 1280 and 375 px, no sideways scroll, screenshots.
 */
import { expect, test, type Page } from "@playwright/test";
import { signUpAndSignIn } from "../tests/helpers/portal";
import { axeClean, chooseRoute, createKey, setScheme } from "./helpers/playground";
import { watchOtherHosts } from "./helpers/same-host";
import { screenshot } from "./helpers/screenshot";

/** Sends the playground's form; answers the status line, the request id and the body the API answered. */
async function send(page: Page) {
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/portal/playground/call"));
  await page.getByRole("button", { name: "Send request" }).click();
  const answered = (await (await answer).json()) as { data: { body: unknown } };
  const response = page.getByTestId("playground-response");
  await expect(response.getByTestId("pg-status")).toHaveText(/^HTTP \d{3}$/);
  const requestId = (await response
    .getByRole("row", { name: /^x-request-id/ })
    .getByRole("cell")
    .textContent())!;
  const status = (await response.getByTestId("pg-status").textContent())!;
  return { status, requestId: requestId.trim(), body: (await answered).data.body as unknown };
}

async function looksRight(page: Page, what: string, shot: (name: string) => string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    for (const scheme of ["light", "dark"] as const) {
      await setScheme(page, scheme);
      await axeClean(page, `${what} at ${width} px (${scheme})`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${what} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
      await screenshot(page, { path: shot(`${what}-${width}-${scheme}.png`), fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: "light" });
}

test("a key made on the Keys page answers 200 in the playground, chosen by name; Logs finds the call and an error's body", async ({
  page,
  context,
  baseURL,
}, info) => {
  test.setTimeout(240_000);
  const foreign = await watchOtherHosts(context, baseURL);
  await signUpAndSignIn(page.request, baseURL);

  // One key, made where the quick start says: the Keys page. It leads straight to the playground.
  await page.goto("/dashboard/keys");
  await page.getByLabel("Name").fill("My laptop");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByTestId("new-key")).toHaveValue(/^svc_test_/, { timeout: 20_000 }); // slow on a busy host
  const secret = await page.getByTestId("new-key").inputValue();
  await page.getByRole("link", { name: "try it in the playground" }).click();
  await expect(page).toHaveURL(/\/dashboard\/playground\?key=key_/);
  await expect(page.locator("#pg-key option:checked")).toHaveText(/^My laptop \(svc_test_\w+…, test\)$/);

  // A second key appears in the list too; the user picks the first one back by its name, and no secret is sent.
  await createKey(page.request, baseURL, "CI runner");
  await page.goto("/dashboard/playground");
  await expect(page.locator("#pg-key option:checked")).toHaveText(/^CI runner /);
  const laptop = (await page.locator("#pg-key option", { hasText: "My laptop" }).textContent())!;
  await chooseRoute(page, "GET /api/v1/ticker/{symbol}/summary");
  await page.getByLabel("Key", { exact: true }).selectOption({ label: laptop });
  await expect(page.getByText(/Runs as your key “My laptop” on the server: no secret needed/)).toBeVisible();
  const sent = page.waitForRequest((r) => r.url().endsWith("/api/portal/playground/call"));
  const ok = await send(page);
  expect(ok.status).toBe("HTTP 200");
  const body = (await sent).postDataJSON() as Record<string, unknown>;
  expect(body.keyId).toMatch(/^key_/);
  expect(body.key).toBeUndefined();
  expect(JSON.stringify(body)).not.toContain(secret.slice(9));
  await expect(page.getByText(/the key you chose above, svc_test_\w+… \(“My laptop”\)/)).toBeVisible();
  await looksRight(page, "playground", (n) => info.outputPath(n));

  // An error, answered by the gateway in the route family's shape.
  await page.getByLabel(/^symbol/).fill("not a symbol");
  const bad = await send(page);
  expect(bad.status).toBe("HTTP 400");

  // The Logs page, from the navigation.
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Logs" }).click();
  await expect(page).toHaveURL(/\/dashboard\/logs$/);
  const log = page.getByRole("table", { name: "Request log" });
  await expect(log.locator(`tr[data-request-id="${ok.requestId}"]`)).toContainText("/api/v1/ticker/AAPL/summary");
  await expect(log.locator(`tr[data-request-id="${bad.requestId}"]`)).toContainText("invalid_request");

  // Search by request id, from the keyboard: one row, and the id in the address.
  await page.getByLabel("Request id").fill(ok.requestId);
  await page.getByLabel("Request id").press("Enter");
  await expect(log.locator("tbody tr")).toHaveCount(1);
  await expect(log.locator("tbody tr")).toHaveAttribute("data-request-id", ok.requestId);
  await expect(page).toHaveURL(new RegExp(`request_id=${ok.requestId}$`));

  // The error row shows its message, and its details the body the caller got.
  await page.getByLabel("Request id").fill(bad.requestId);
  await page.getByRole("button", { name: "Find request" }).click();
  await expect(log.locator("tbody tr")).toHaveCount(1);
  const errorRow = log.locator(`tr[data-request-id="${bad.requestId}"]`);
  await expect(errorRow).toContainText("400");
  await expect(errorRow).toContainText("path field 'symbol' must be a ticker symbol");
  await errorRow.getByRole("button", { name: `Details of ${bad.requestId}` }).click();
  const drawer = page.getByRole("dialog");
  const shown = drawer.getByTestId("detail-body");
  await expect(shown).toContainText('"code": "invalid_request"');
  // The body as the playground showed it when the API answered: the same JSON.
  expect(JSON.parse((await shown.textContent())!)).toEqual(bad.body);
  await screenshot(page, { path: info.outputPath("logs-error-drawer-1280.png") });
  await page.keyboard.press("Escape");
  await expect(drawer).toHaveCount(0);
  await page.getByRole("button", { name: "Show all requests" }).click();
  await expect(page).toHaveURL(/\/dashboard\/logs$/);

  // Live tail: a call made elsewhere appears without a reload; paused, the next one waits until resumed.
  const callApi = async () => {
    const res = await page.request.get("/api/v1/data/yield-curve", { headers: { authorization: `Bearer ${secret}` } });
    expect(res.status()).toBe(200);
    return res.headers()["x-request-id"];
  };
  const live = await callApi();
  await expect(log.locator(`tr[data-request-id="${live}"]`)).toBeVisible({ timeout: 15_000 });
  await page.getByRole("button", { name: "Pause live tail" }).click();
  await expect(page.getByTestId("live-tail-state")).toHaveText(/^Paused/);
  const later = await callApi();
  await page.waitForTimeout(7_000);
  await expect(log.locator(`tr[data-request-id="${later}"]`)).toHaveCount(0);
  await page.getByRole("button", { name: "Resume live tail" }).click();
  await expect(log.locator(`tr[data-request-id="${later}"]`)).toBeVisible({ timeout: 15_000 });
  await page.getByRole("button", { name: "Pause live tail" }).click(); // still while axe and the screenshots run

  await looksRight(page, "logs", (n) => info.outputPath(n));
  expect(foreign).toEqual([]);
});

test("the Logs page's empty and no-match states, and a bad request id named by the API", async ({ page, baseURL }) => {
  await signUpAndSignIn(page.request, baseURL);
  await page.goto("/dashboard/logs");
  await expect(page.getByText("No requests in the last 7 days")).toBeVisible({ timeout: 20_000 });
  await page.getByLabel("Request id").fill("req_nothing_here");
  await page.getByLabel("Request id").press("Enter");
  await expect(page.getByText("No request with id req_nothing_here.")).toBeVisible();
  await page.getByLabel("Request id").fill("not an id");
  await page.getByLabel("Request id").press("Enter");
  await expect(page.getByRole("region", { name: "Requests" }).getByRole("alert")).toContainText(
    "A request id is 1–128 letters",
  );
});
