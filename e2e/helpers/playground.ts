/** What the playground specs share: a signed-in user with a test key on the playground page, axe, the theme. */
import { axe } from "./axe";
import { type APIRequestContext, type BrowserContext, expect, type Page } from "@playwright/test";
import { portalOrigin, signUpAndSignIn } from "../../tests/helpers/portal";
import { watchOtherHosts } from "./same-host";

/** Creates a key on the signed-in account as the Keys page does; the playground picks the newest usable key first. */
export async function createKey(
  request: APIRequestContext,
  baseURL: string | undefined,
  name = "Playground",
  env: "test" | "live" = "test",
): Promise<{ id: string; key: string; prefix: string }> {
  const res = await request.post("/api/portal/keys", { data: { name, env }, headers: portalOrigin(baseURL) });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).data;
}

/** Signs up, creates a test key and opens the playground on `route`; answers the requests to other hosts. */
export async function playgroundOn(page: Page, context: BrowserContext, baseURL: string | undefined, route: string) {
  const foreign = await watchOtherHosts(context, baseURL);
  await signUpAndSignIn(page.request, baseURL);
  await createKey(page.request, baseURL);
  await page.goto("/dashboard/playground");
  await chooseRoute(page, route);
  return foreign;
}

/**
 * Chooses `route` ("METHOD /path") on a freshly loaded playground. A choice made before the page has hydrated is lost
 * (the server-rendered select changes, React's state does not), so it is made again until the curl command, which
 * React renders from its state, names the route's path.
 */
export async function chooseRoute(page: Page, route: string) {
  const path = route.slice(route.indexOf(" ") + 1).split("{")[0];
  await expect(async () => {
    await page.getByLabel("Route").selectOption(route);
    await expect(page.getByLabel("curl command")).toContainText(path, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

export async function axeClean(page: Page, what: string) {
  const results = await axe(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    bad.map((v) => `${what}: ${v.id} (${v.nodes.length}) ${v.nodes[0]?.target}`),
    what,
  ).toEqual([]);
}

/** Switches the system colour scheme and waits for the page's theme class to follow it. */
export async function setScheme(page: Page, scheme: "light" | "dark") {
  await page.emulateMedia({ colorScheme: scheme });
  await expect(page.locator("html")).toHaveClass(scheme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b).*$/);
}
