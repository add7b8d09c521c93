import { expect, test } from "@playwright/test";
import { sidewaysScrollers } from "./helpers/page-checks";
import { axeClean, playgroundOn, setScheme } from "./helpers/playground";
import { screenshot } from "./helpers/screenshot";

const HISTORY = "GET /api/v1/history/{symbol}";

test("getHistory in the playground draws the series, with a field picker, its table, and no chart for text or errors", async ({
  page,
  context,
  baseURL,
}, info) => {
  test.setTimeout(240_000);
  const foreign = await playgroundOn(page, context, baseURL, HISTORY);
  await expect(
    page.getByRole("navigation", { name: "Operations" }).getByText("History", { exact: true }),
  ).toBeVisible();
  await page.getByLabel(/^symbol/).fill("AAPL");
  await page.getByLabel(/^fields/).fill("price,iv_rank,sentiment,atm_iv_30d");
  await page.getByRole("button", { name: "Send request" }).click();

  const response = page.getByTestId("playground-response");
  await expect(response.getByTestId("pg-status")).toHaveText("HTTP 200", { timeout: 30_000 });
  await expect(response.getByText(/Disclaimer in the response/)).toBeVisible();
  const body = JSON.parse((await response.getByLabel("Response body").textContent()) ?? "null") as {
    data: { rows: Record<string, unknown>[]; count: number };
  };
  const rows = body.data.rows;
  expect(rows.length).toBeGreaterThan(5); // the demo seed writes a year of daily snapshots; Sandbox reads 30 days
  const chart = response.getByTestId("pg-history-chart");
  await expect(chart.getByRole("heading", { name: "History of AAPL: IV rank" })).toBeVisible();
  await expect(chart.locator(".recharts-line-curve")).toBeVisible();
  const ivDays = rows.filter((r) => typeof r.iv_rank === "number").length;
  await expect(chart.getByTestId("pg-history-summary")).toContainText(`IV rank on ${ivDays} of ${rows.length} days`);
  // The field picker lists the numeric columns only, in the answer's order.
  const picker = chart.getByLabel("Field");
  await expect(picker.locator("option")).toHaveText(["price", "iv_rank", "atm_iv_30d"]);
  await picker.selectOption("price");
  await expect(chart.getByRole("heading", { name: "History of AAPL: Price" })).toBeVisible();

  // The table alternative: one row per day with the chosen field, as answered.
  await chart.getByText("Show the numbers as a table").click();
  const table = chart.getByRole("table", { name: "History of AAPL: Price" });
  await expect(table.locator("tbody tr")).toHaveCount(rows.length);
  const last = rows[rows.length - 1];
  const lastPrice = (last.price as number).toLocaleString("en-US", { maximumFractionDigits: 4 });
  await expect(table.getByRole("row", { name: String(last.date) })).toContainText(lastPrice);
  // The disclaimer stays above the chart.
  const disclaimerBox = await response.getByText(/Disclaimer in the response/).boundingBox();
  const chartBox = await chart.boundingBox();
  expect(disclaimerBox!.y).toBeLessThan(chartBox!.y);

  for (const scheme of ["light", "dark"] as const) {
    await setScheme(page, scheme);
    await axeClean(page, `playground history (${scheme})`);
    await chart.scrollIntoViewIfNeeded();
    await screenshot(page, { path: info.outputPath(`history-chart-${scheme}.png`), fullPage: false });
  }
  await page.setViewportSize({ width: 375, height: 900 });
  await chart.scrollIntoViewIfNeeded();
  await expect(chart.locator(".recharts-line-curve")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  expect(await sidewaysScrollers(page)).toEqual([]);
  await axeClean(page, "playground history (dark, 375 px)");
  await screenshot(page, { path: info.outputPath("history-chart-375-dark.png"), fullPage: false });
  await page.emulateMedia({ colorScheme: "light" });
  await screenshot(page, { path: info.outputPath("history-chart-375-light.png"), fullPage: false });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Only text columns: nothing to draw, and the chart says why.
  await page.getByLabel(/^fields/).fill("sentiment,risk_level");
  await page.getByRole("button", { name: "Send request" }).click();
  await expect(response.getByTestId("pg-history-chart")).toContainText("None of the requested fields is a number", {
    timeout: 20_000,
  });
  // An error answer draws no chart.
  await page.getByLabel(/^symbol/).fill("ZZZZZ");
  await page.getByRole("button", { name: "Send request" }).click();
  await expect(response.getByTestId("pg-status")).toHaveText("HTTP 404", { timeout: 20_000 });
  await expect(response.locator("code", { hasText: "symbol_not_found" })).toBeVisible();
  await expect(response.getByTestId("pg-history-chart")).toHaveCount(0);
  // One day is a series of one point.
  await page.getByLabel("Route").selectOption("GET /api/v1/history/{symbol}/{date}");
  await page.getByLabel(/^symbol/).fill("AAPL");
  await page.getByLabel(/^date/).fill(String(last.date));
  await page.getByRole("button", { name: "Send request" }).click();
  await expect(response.getByTestId("pg-status")).toHaveText("HTTP 200", { timeout: 20_000 });
  await expect(response.getByTestId("pg-history-summary")).toContainText("on 1 of 1 days", { timeout: 20_000 });
  expect(foreign).toEqual([]);
});
