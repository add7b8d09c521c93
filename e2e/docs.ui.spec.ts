import { expect, test } from "@playwright/test";
import { watchOtherHosts } from "./helpers/same-host";
import { referenceRendered } from "./helpers/page-checks";

test("docs renders the OpenAPI document with Scalar, loading nothing from another host", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000); // the document now declares every response's headers: a larger reference to render
  const foreign = await watchOtherHosts(context, baseURL);
  await page.goto("/docs");
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
  const reference = page.getByTestId("scalar-reference");
  await referenceRendered(page);
  await expect(reference).toContainText("rate_limit_exceeded"); // the reference notes, from the document's description
  // Scalar renders sections as they scroll into view.
  await reference.getByRole("heading", { name: "Market analytics", exact: true }).scrollIntoViewIfNeeded();
  await expect(reference).toContainText("/api/v1/ticker/{symbol}/summary");
  await expect(reference).toContainText("Research summary for a ticker");
  await reference.getByRole("heading", { name: "Research", exact: true }).scrollIntoViewIfNeeded();
  await expect(reference).toContainText("/api/v1/ai/symbol/{ticker}/no-trade");
  await expect(page.getByRole("status").filter({ hasText: "Loading the API reference" })).toHaveCount(0);
  await page.waitForLoadState("networkidle");
  expect(foreign).toEqual([]);
});

test("the bundle is served by the app; without it the page says so and links the raw document", async ({
  page,
  request,
}) => {
  const bundle = await request.get("/docs/scalar.js");
  expect(bundle.status()).toBe(200);
  expect(bundle.headers()["content-type"]).toContain("javascript");
  await page.route("**/docs/scalar.js", (route) => route.fulfill({ status: 500, body: "" }));
  await page.goto("/docs");
  const alert = page.getByRole("alert").filter({ hasText: "could not be loaded" });
  await expect(alert).toBeVisible();
  await expect(alert.getByRole("link", { name: "/api/v1/openapi.json" })).toHaveAttribute(
    "href",
    "/api/v1/openapi.json",
  );
});

test("every guide is linked from /docs and renders; limits come from the database's plan rows", async ({ page }) => {
  await page.goto("/docs");
  const guides = page.getByRole("navigation", { name: "Guides" });
  const hrefs: [string, string][] = [];
  for (const name of [
    "Quick start",
    "Authentication",
    "Errors",
    "Limits",
    "Data labels and disclaimer",
    "Metric definitions",
  ]) {
    const href = await guides.getByRole("link", { name }).getAttribute("href");
    expect(href, `${name} is linked`).toMatch(/^\/docs\/guides\//);
    hrefs.push([name, href!]);
  }
  // Opened one by one (not by clicking while the reference bundle is still loading on /docs).
  for (const [name, href] of hrefs) {
    await page.goto(href);
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  }
  await page.goto("/docs/guides/limits");
  const a = page.getByRole("table", { name: /Family A limits/ });
  await expect(a.getByRole("row", { name: /^Sandbox/ })).toContainText("10");
  await expect(a.getByRole("row", { name: /^Sandbox/ })).toContainText("100");
  await page.goto("/docs/guides/data-labels");
  await expect(page.getByRole("complementary", { name: "Disclaimer" })).toContainText("not financial advice");
  await page.goto("/docs/guides/errors");
  await expect(page.getByRole("rowheader", { name: "endpoint_pending_licensing" })).toBeVisible();
  expect((await page.request.get("/docs/guides/nope")).status()).toBe(404);
});

test("the reference's code samples are our clients' beside curl, against this address", async ({ page, baseURL }) => {
  const doc = await (await page.request.get("/docs/openapi.json")).json();
  const op = doc.paths["/api/v1/ticker/{symbol}/summary"].get;
  expect(op["x-codeSamples"].map((s: { label: string }) => s.label)).toEqual([
    "curl",
    "TypeScript (@options-research/client)",
    "Python (options_research)",
  ]);
  expect(op["x-codeSamples"][0].source).toContain(`'${baseURL}/api/v1/ticker/AAPL/summary'`);
  expect(op["x-codeSamples"][1].source).toContain('api.getTickerSummary({ symbol: "AAPL" })');
  expect(op["x-codeSamples"][2].source).toContain('client.get_ticker_summary(symbol="AAPL")');
  // The API's own document stays free of them.
  const own = await (await page.request.get("/api/v1/openapi.json")).json();
  expect(own.paths["/api/v1/ticker/{symbol}/summary"].get["x-codeSamples"]).toBeUndefined();
});
