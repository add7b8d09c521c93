/** The same call three ways: curl, TypeScript and Python tabs in the API reference's quick start and the playground. */
import { expect, test, type Locator } from "@playwright/test";
import { signUpAndSignIn } from "../tests/helpers/portal";
import { chooseRoute } from "./helpers/playground";

/** Opens a language tab of `scope` and returns its code block. */
async function tab(scope: Locator, name: string, label: string) {
  await scope.getByRole("tab", { name, exact: true }).click();
  await expect(scope.getByRole("tab", { name, exact: true })).toHaveAttribute("aria-selected", "true");
  return scope.getByLabel(label, { exact: true });
}

test("the reference's quick start shows the first call in curl, TypeScript and Python, against this origin", async ({
  page,
  baseURL,
}) => {
  const origin = new URL(baseURL!).origin;
  // On /docs the quick start is its own region (the reference below it has tabs of its own); the guide is all quick start.
  for (const [path, quickStart] of [
    ["/docs", page.getByRole("region", { name: "Quick start" })],
    ["/docs/guides/quick-start", page.locator("main")],
  ] as const) {
    await page.goto(path);
    // On /docs it is one line until opened, so the reference starts on the first screen.
    if (path === "/docs") await quickStart.getByText("Quick start", { exact: true }).click();
    const curl = quickStart.getByLabel("curl command", { exact: true });
    await expect(curl).toContainText(`curl -sS '${origin}/api/v1/ticker/AAPL/summary'`);
    await expect(curl).toContainText('-H "Authorization: Bearer $API_KEY"');
    await expect(curl).not.toContainText("BASE_URL");
    const ts = await tab(quickStart, "TypeScript", "TypeScript code");
    await expect(ts).toContainText('import { createClient } from "@options-research/client";');
    await expect(ts).toContainText(`createClient({ apiKey: process.env.API_KEY!, baseUrl: "${origin}" })`);
    await expect(ts).toContainText('await api.getTickerSummary({ symbol: "AAPL" })');
    const py = await tab(quickStart, "Python", "Python code");
    await expect(py).toContainText("from options_research import Client");
    await expect(py).toContainText(`Client(api_key=os.environ["API_KEY"], base_url="${origin}")`);
    await expect(py).toContainText('client.get_ticker_summary(symbol="AAPL")');
    await tab(quickStart, "curl", "curl command"); // the choice is remembered: leave curl for the next page
  }
});

test("the playground's code follows the chosen route and its values in each language", async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  await signUpAndSignIn(page.request, baseURL);
  await page.goto("/dashboard/playground");
  await chooseRoute(page, "GET /api/v1/ai/symbol/{ticker}/no-trade");
  await page.getByLabel(/^ticker/).fill("TSLA");
  const code = page.getByRole("region", { name: "Code" });
  await expect(code.getByLabel("curl command")).toContainText(`'${origin}/api/v1/ai/symbol/TSLA/no-trade'`);
  await expect(await tab(code, "TypeScript", "TypeScript code")).toContainText(
    'await api.getNoTrade({ ticker: "TSLA" })',
  );
  await expect(await tab(code, "Python", "Python code")).toContainText('client.get_no_trade(ticker="TSLA")');

  // A route with a query and a numeric value: the Python tab (still chosen) follows at once.
  await page.getByLabel("Route").selectOption("GET /api/v1/options-flow");
  await page.getByLabel(/^min_premium/).fill("50000");
  await expect(code.getByLabel("Python code")).toContainText(
    'client.list_options_flow(symbol="AAPL", min_premium=50000)',
  );
  await expect(await tab(code, "curl", "curl command")).toContainText(
    `'${origin}/api/v1/options-flow?symbol=AAPL&min_premium=50000'`,
  );
  await expect(await tab(code, "TypeScript", "TypeScript code")).toContainText(
    'await api.listOptionsFlow({ symbol: "AAPL", min_premium: 50000 })',
  );
  // Keyboard: arrow keys move between the tabs.
  await code.getByRole("tab", { name: "TypeScript" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(code.getByRole("tab", { name: "Python" })).toHaveAttribute("aria-selected", "true");
  await expect(code).not.toContainText("svc_test_");
});
