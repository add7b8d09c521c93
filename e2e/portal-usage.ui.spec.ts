import { expect, test } from "@playwright/test";
import { signUpAndSignIn } from "../tests/helpers/portal";
import { chooseRoute, createKey } from "./helpers/playground";
import { screenshot } from "./helpers/screenshot";

test("a call from the playground appears in the usage chart and the request log", async ({ page, baseURL }, info) => {
  test.setTimeout(120_000);
  await signUpAndSignIn(page.request, baseURL);
  await page.goto("/dashboard/playground");
  await expect(page.getByRole("complementary", { name: "Disclaimer" })).toContainText("not financial advice");
  await expect(page.getByLabel("Route")).toHaveValue("GET /api/v1/ticker/{symbol}/summary");
  await expect(page.getByLabel(/^symbol/)).toHaveValue("AAPL");
  // Without a key of its own the playground sends nothing on the user's behalf: it says so and offers to create one.
  await page.getByRole("button", { name: "Send request" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Choose one of your keys, or paste a key." })).toBeVisible();
  expect((await (await page.request.get("/api/portal/keys")).json()).data).toEqual([]);
  await page.getByRole("button", { name: "Create a test key" }).click();
  await expect(page.getByTestId("new-key")).toHaveValue(/^svc_test_/);
  await page.getByRole("button", { name: "Send request" }).click();

  const response = page.getByTestId("playground-response");
  await expect(response.getByTestId("pg-status")).toHaveText("HTTP 200");
  await expect(response.getByText("Demo data", { exact: true })).toBeVisible();
  await expect(response.getByText("Data label: demo")).toBeVisible();
  await expect(response.getByText(/Disclaimer in the response/)).toBeVisible();
  await expect(response.getByRole("row", { name: /^ratelimit-policy/ })).toContainText('"minute";q=10;w=60');
  await expect(response.getByLabel("Response body")).toContainText('"not_financial_advice": true');
  await expect(page.getByLabel("curl command")).toContainText("/api/v1/ticker/AAPL/summary");
  const requestId = (await response
    .getByRole("row", { name: /^x-request-id/ })
    .getByRole("cell")
    .textContent())!.trim();
  expect(requestId).toMatch(/^req_/);
  await expect(page.locator("#pg-key option:checked")).toHaveText(/^Playground \(svc_test_\w+…, test\)$/);
  await screenshot(page, { path: info.outputPath("playground.png"), fullPage: true });

  // A bad parameter is answered by the gateway itself, in the route family's error shape.
  await page.getByLabel(/^symbol/).fill("not a symbol");
  const answered = page.waitForResponse((r) => r.url().endsWith("/api/portal/playground/call"));
  await page.getByRole("button", { name: "Send request" }).click();
  // What the API answered the 400 (as the playground relays it): its body and rate-limit headers.
  const bad = (await (await answered).json()).data as { body: unknown; headers: Record<string, string> };
  const badBytes = new TextEncoder().encode(JSON.stringify(bad.body)).length;
  await expect(response.getByTestId("pg-status")).toHaveText("HTTP 400");
  await expect(response.getByLabel("Response body")).toContainText("invalid_request");

  await page.goto("/dashboard/usage");
  await expect(page.getByTestId("minute-chart-summary")).toHaveText(/^2 calls in the last hour: Family A 2\.$/);
  await page.getByLabel("Group by").selectOption("status");
  await expect(page.getByTestId("minute-chart-summary")).toHaveText(/^2 calls in the last hour: 2xx 1, 4xx 1\.$/);
  await expect(page.getByTestId("daily-chart-summary")).toContainText("2 calls in the last 30 days");
  await expect(page.locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expect(page.getByText(/Family A quota: 1 of 100 calls this month/)).toBeVisible();
  await screenshot(page, { path: info.outputPath("usage.png"), fullPage: true });
  await expect(page.getByTestId("quota-test")).toContainText("shared by");

  await page.getByRole("region", { name: "Request log" }).getByRole("link", { name: "Logs" }).click();
  await expect(page).toHaveURL(/\/dashboard\/logs$/);
  const log = page.getByRole("table", { name: "Request log" });
  // The requested path, not the route template.
  await expect(log.getByRole("row", { name: new RegExp(requestId) })).toContainText("/api/v1/ticker/AAPL/summary");
  await expect(log.getByRole("row", { name: new RegExp(requestId) })).toContainText("200");

  await page.getByLabel("Status", { exact: true }).selectOption("4xx");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(log.getByRole("row")).toHaveCount(2); // header + the 400
  await expect(log).toContainText("invalid_request");
  await expect(log).toContainText("/api/v1/ticker/not%20a%20symbol/summary");

  await page.getByRole("button", { name: "Clear" }).click();
  await page.getByLabel("Symbol").fill("aapl");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(log.getByRole("row")).toHaveCount(2); // header + the 200 for AAPL
  await page.getByLabel("Symbol").fill("");
  await page.getByLabel("Status", { exact: true }).selectOption("400");
  await page.getByLabel("Error code").selectOption("invalid_request");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(log.getByRole("row")).toHaveCount(2);
  await log
    .locator("tbody tr")
    .first()
    .getByRole("button", { name: /^Details of/ })
    .click();
  const drawer = page.getByRole("dialog");
  await expect(drawer.getByTestId("detail-path")).toHaveText("/api/v1/ticker/not%20a%20symbol/summary");
  await expect(drawer.getByTestId("detail-query")).toHaveText("none");
  await expect(drawer.getByLabel("curl command")).toContainText("/api/v1/ticker/not%20a%20symbol/summary");
  // The answer's size and the rate-limit state after the call, as the response's headers said.
  expect(badBytes).toBeGreaterThan(0);
  await expect(drawer.getByTestId("detail-size")).toHaveText(new RegExp(`^${badBytes.toLocaleString("en-US")} bytes`));
  const quotaLeft = /"month";r=(\d+)/.exec(bad.headers.ratelimit)![1];
  await expect(drawer.getByTestId("detail-rate-limit")).toHaveText(
    `Burst: ${bad.headers["x-ratelimit-remaining"]} of 10 left this minuteQuota: ${quotaLeft} of 100 left`,
  );
  expect(quotaLeft).toBe("99"); // hand-checked: one 2xx so far this month on Sandbox's 100
  await screenshot(page, { path: info.outputPath("request-detail.png"), fullPage: true });
});

test("usage and playground portal routes answer 401 signed out; the pages redirect to sign-in", async ({
  page,
  request,
  baseURL,
}) => {
  for (const path of ["/api/portal/usage", "/api/portal/usage/requests", "/api/portal/keys"]) {
    expect((await request.get(path)).status(), path).toBe(401);
  }
  const call = await request.post("/api/portal/playground/call", {
    data: { operation: "GET /api/v1/health" },
    headers: { origin: new URL(baseURL!).origin },
  });
  expect(call.status()).toBe(401);
  for (const path of ["/dashboard/usage", "/dashboard/logs", "/dashboard/playground"]) {
    await page.goto(path);
    await expect(page).toHaveURL(`${baseURL}/signin?callbackUrl=${encodeURIComponent(path)}`);
  }
});

test("another account's key is a 404 in the request log filter; bad filters are a 400 naming the field", async ({
  page,
  baseURL,
  browser,
}) => {
  await signUpAndSignIn(page.request, baseURL);
  const mine = (await createKey(page.request, baseURL)).id;
  await page.request.post("/api/portal/playground/call", {
    data: { operation: "GET /api/v1/data/yield-curve", keyId: mine },
    headers: { origin: new URL(baseURL!).origin },
  });
  const other = await browser.newContext({ baseURL });
  await signUpAndSignIn(other.request, baseURL);
  const stolen = await other.request.get(`/api/portal/usage/requests?key=${mine}`);
  expect(stolen.status()).toBe(404);
  const summary = (await (await other.request.get("/api/portal/usage")).json()).data;
  expect(summary.keyCalls.map((k: { keyId: string }) => k.keyId)).not.toContain(mine);
  for (const [query, field] of [
    ["status=3xx", "status"],
    ["status=600", "status"],
    ["error_code=Not%20Found", "error_code"],
    ["symbol=AAPL1", "symbol"],
    ["request_id=a%20b", "request_id"],
  ]) {
    const bad = await other.request.get(`/api/portal/usage/requests?${query}`);
    expect(bad.status(), query).toBe(400);
    expect((await bad.json()).error.field, query).toBe(field);
  }
  const badCursor = await other.request.get(`/api/portal/usage/requests?cursor=nope`);
  expect(badCursor.status()).toBe(400);
  expect((await badCursor.json()).error.field).toBe("cursor");
  const badOp = await other.request.post("/api/portal/playground/call", {
    data: { operation: "GET /nope" },
    headers: { origin: new URL(baseURL!).origin },
  });
  expect(badOp.status()).toBe(400);
  // Another account's key cannot be used in the playground either: it is not found, and nothing is called.
  const borrowed = await other.request.post("/api/portal/playground/call", {
    data: { operation: "GET /api/v1/data/yield-curve", keyId: mine },
    headers: { origin: new URL(baseURL!).origin },
  });
  expect(borrowed.status()).toBe(404);
  expect((await borrowed.json()).error.field).toBe("keyId");
  await other.close();
});

test("a body route's form builds the JSON body from the document; a pasted key is used as given", async ({
  page,
  baseURL,
}) => {
  await signUpAndSignIn(page.request, baseURL);
  await createKey(page.request, baseURL);
  await page.goto("/dashboard/playground");
  await chooseRoute(page, "POST /api/v1/alerts");
  await page.getByLabel(/^url/).fill("http://localhost:9/hook");
  await page
    .getByRole("group", { name: /^events/ })
    .getByLabel("iv_rank.crossed_above")
    .check();
  await page.getByLabel(/^symbols/).fill("AAPL, MSFT");
  await page.getByLabel(/^ivRankAbove/).fill("80");
  await page.getByRole("button", { name: "Send request" }).click();
  const response = page.getByTestId("playground-response");
  // Sandbox has no webhooks: the gateway answers in family B's error shape, envelope included.
  await expect(response.getByTestId("pg-status")).toHaveText("HTTP 403");
  await expect(response.getByLabel("Response body")).toContainText('"code": "subscription_required"');
  await expect(response.getByLabel("Response body")).toContainText('"isMockData": true');
  await expect(page.getByLabel("curl command")).toContainText(
    `-d '{"url":"http://localhost:9/hook","events":["iv_rank.crossed_above"],"symbols":["AAPL","MSFT"],"ivRankAbove":80}'`,
  );

  await page.getByLabel("Route").selectOption("GET /api/v1/data/market-sentiment");
  await page.getByLabel("Key", { exact: true }).selectOption({ label: "Paste a key…" });
  await page.getByLabel("API key").fill("svc_test_000000000000000000000000000000");
  await page.getByRole("button", { name: "Send request" }).click();
  await expect(response.getByTestId("pg-status")).toHaveText("HTTP 401");
  await expect(response.getByLabel("Response body")).toContainText("invalid_api_key");
});
