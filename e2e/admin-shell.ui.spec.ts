/**
 * The admin console's look, as e2e/portal-shell.ui.spec.ts checks the portal's: every admin page with data in it at
 * 1280 and 375 px in light and dark, screenshotted into test-results/admin/ (not committed); nothing is loaded from
 * another host, no page scrolls sideways, no table needs a sideways scroll bar or squeezes a column at 1280 px, axe
 * finds nothing serious or critical in either theme; the pages work from the keyboard with a visible focus ring.
 */
import { axe } from "./helpers/axe";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { e2eCli, verifyEmail } from "../tests/helpers/e2e-cli";
import { portalOrigin, signUpAndSignIn } from "../tests/helpers/portal";
import { sidewaysScrollers } from "./helpers/page-checks";
import { watchOtherHosts } from "./helpers/same-host";
import { screenshot } from "./helpers/screenshot";

// Its tests share nothing: Playwright may spread them over the workers (the light and dark scans are the suite's longest).
test.describe.configure({ mode: "parallel" });

const LONG = "Quantitative research desk for systematic options-positioning strategies, EMEA and APAC";

async function cli(baseURL: string | undefined, ...args: string[]) {
  const r = await e2eCli(baseURL, ...args);
  expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(0);
  return r.stdout.trim() ? JSON.parse(r.stdout) : null;
}

/** An admin signed in on `page`, a customer with keys and calls, a pending and a rejected access request, a licensing change. */
async function adminWithData(page: Page, baseURL: string | undefined, newRequest: () => Promise<APIRequestContext>) {
  const origin = portalOrigin(baseURL);
  const customer = `desk_${Date.now()}@example.com`;
  const account = await cli(baseURL, "account", "create", "--email", customer, "--plan", "pro");
  const keys = [];
  for (const name of [LONG.slice(0, 80), "CI runner", "notebook"])
    keys.push(await cli(baseURL, "key", "create", "--email", customer, "--env", "test", "--name", name));
  for (let i = 0; i < 12; i++)
    await page.request.get(i % 4 === 3 ? "/api/v1/ticker/NOPE!/summary" : "/api/v1/data/yield-curve", {
      headers: { authorization: `Bearer ${keys[i % keys.length].key}` },
    });
  await cli(baseURL, "key", "deactivate", "--prefix", keys[2].prefix);

  for (const [company, decide] of [
    ["Northwind Analytics", false],
    [`${LONG} Ltd`, true],
  ] as const) {
    const r = await newRequest(); // the requester's own cookies, not the admin's
    const requester = await signUpAndSignIn(r, baseURL);
    await verifyEmail(baseURL, requester.email);
    expect((await r.put("/api/portal/plan", { data: { plan: "starter" }, headers: origin })).status()).toBe(200);
    const asked = await r.post("/api/portal/access-requests", {
      data: { company, useCase: `${LONG}: dashboards of positioning for our analysts.`, expectedVolume: "10k_100k" },
      headers: origin,
    });
    expect(asked.status()).toBe(201);
    if (decide) {
      const id = ((await asked.json()) as { data: { id: string } }).data.id;
      await cli(
        baseURL,
        "access",
        "reject",
        "--id",
        id,
        "--reason",
        "We cannot license trade-level data to resellers.",
      );
    }
  }

  const admin = await signUpAndSignIn(page.request, baseURL);
  await cli(baseURL, "admin", "grant", "--email", admin.email);
  const change = await page.request.post("/api/admin/licensing", {
    headers: origin,
    data: { endpointId: "GET /api/v1/options-flow", env: "test", state: "enabled", reason: "Demo data is our own" },
  });
  expect(change.status()).toBe(200);
  return { accountId: account.accountId as string, customer };
}

async function settled(page: Page) {
  await page.waitForLoadState("load");
  await expect(page.getByRole("status").filter({ hasText: /^Loading/ })).toHaveCount(0, { timeout: 20_000 });
  await expect(page.locator("h1")).toBeVisible();
}

/** Table cells squeezed narrower than 64 px at this width (a column left no room by the fixed ones). */
const squeezedCells = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("main table td")]
      .filter((td) => td.getClientRects().length > 0 && td.getBoundingClientRect().width < 64)
      .map((td) => `${td.closest("table")?.querySelector("caption")?.textContent}: ${td.textContent?.slice(0, 40)}`)
      .slice(0, 5),
  );

for (const scheme of ["light", "dark"] as const) {
  test(`every admin page at 1280 and 375 px in ${scheme}: screenshots, no sideways scrolling, axe clean`, async ({
    page,
    baseURL,
    playwright,
  }) => {
    test.setTimeout(420_000);
    await page.emulateMedia({ colorScheme: scheme });
    const foreign = await watchOtherHosts(page.context(), baseURL);
    const contexts: APIRequestContext[] = [];
    const newRequest = async () => {
      contexts.push(await playwright.request.newContext({ baseURL }));
      return contexts[contexts.length - 1];
    };
    const { accountId, customer } = await adminWithData(page, baseURL, newRequest);
    const pages = [
      "/admin",
      "/admin/licensing",
      `/admin/licensing?history=${encodeURIComponent("GET /api/v1/options-flow")}`,
      "/admin/access-requests",
      `/admin/accounts?q=${encodeURIComponent(customer)}`,
      `/admin/accounts/${accountId}`,
      "/admin/audit",
      "/admin/audit?from=soon",
    ];
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of pages) {
        await page.goto(path);
        await settled(page);
        const name = path
          .replace(/[0-9a-f-]{36}/, "id")
          .replace(/desk_\d+%40example\.com/, "email")
          .replace(/\W+/g, "_")
          .replace(/^_|_$/g, "");
        expect
          .soft(await page.evaluate(() => document.documentElement.classList.contains("dark")))
          .toBe(scheme === "dark");
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect.soft(overflow, `${path} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
        if (width === 1280) {
          expect.soft(await sidewaysScrollers(page), `${path}: tables scroll sideways at 1280 px`).toEqual([]);
          expect.soft(await squeezedCells(page), `${path}: squeezed columns at 1280 px`).toEqual([]);
        }
        const results = await axe(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
        const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
        expect
          .soft(
            bad.map((v) => `${v.id} (${v.nodes.length}) ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
            `${path} at ${width} px in ${scheme}`,
          )
          .toEqual([]);
        await screenshot(page, { path: `test-results/admin/${name}-${width}-${scheme}.png`, fullPage: true });
      }
    }
    for (const c of contexts) await c.dispose();
    expect(foreign, "requests to another host").toEqual([]);
  });
}

test("the admin console from the keyboard: skip link, section links, form controls and buttons with a visible focus ring", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const admin = await signUpAndSignIn(page.request, baseURL);
  await cli(baseURL, "admin", "grant", "--email", admin.email);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/admin");
  const ring = () =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const s = getComputedStyle(el);
      return {
        text: (el.getAttribute("aria-label") ?? el.textContent ?? "").trim(),
        outline: s.outlineStyle,
        width: s.outlineWidth,
      };
    });
  // Tab through the page until the licensing link of the admin nav has focus, then follow it with Enter.
  let found = false;
  for (let i = 0; i < 40 && !found; i++) {
    await page.keyboard.press("Tab");
    const f = await ring();
    if (f) expect.soft(f.outline, `focus ring on “${f.text}”`).not.toBe("none");
    found = f?.text === "Licensing review";
  }
  expect(found).toBe(true);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/licensing$/);
  // During the client-side navigation the old page's h1 can still be in the DOM for a moment: wait for the one page.
  await expect(page.getByRole("heading", { level: 1, name: "Licensing review" })).toBeVisible();
  await expect(page.locator("h1")).toHaveCount(1);
  // The form by keyboard: endpoint, environment and state are reachable, the reason takes text, Enter submits.
  await page.getByLabel("Endpoint", { exact: true }).focus();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("State", { exact: true })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("textbox", { name: "Reason", exact: true })).toBeFocused();
  await page.keyboard.type("x");
  await page.keyboard.press("Enter");
  await expect(page.getByText("A reason of 3–500 characters is required.")).toBeVisible();
  await page.keyboard.press("Tab");
  const f = await ring();
  expect(f?.text).toBe("Change state");
  expect(f?.outline).not.toBe("none");
});
