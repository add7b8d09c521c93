/**
 * The portal's shared authorization checks, run for every portal route and page:
 *  - signed out: every route answers 401 `unauthenticated`, every page redirects to /signin?callbackUrl=…;
 *  - a second user: every route or page of the first user's resources answers 404 or 403 and leaks nothing of them.
 * Register routes in a spec: `await checkSignedOut(request, plan)`, `await checkSecondUser(playwright, baseURL, plan)`.
 */
import { expect, type APIRequestContext, type APIResponse, type PlaywrightWorkerArgs } from "@playwright/test";
import { portalOrigin, signUpAndSignIn, type PortalTestUser } from "./portal";

export interface PortalRouteCase {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  body?: unknown;
}

export interface PortalAuthzPlan {
  /** Routes that need a signed-in user. */
  routes: PortalRouteCase[];
  /** Pages that need a signed-in user. */
  pages: string[];
  /**
   * Makes the first user's resources (through `owner`, signed in as that user) and returns the routes and pages
   * that reach them; a second user must get 404 or 403 from each, with none of `secrets` in the body.
   */
  foreign?: (
    owner: APIRequestContext,
    user: PortalTestUser,
  ) => Promise<{ routes: PortalRouteCase[]; pages?: string[]; secrets?: string[] }>;
}

function send(request: APIRequestContext, route: PortalRouteCase, baseURL?: string): Promise<APIResponse> {
  return request.fetch(route.path, {
    method: route.method,
    headers: { ...portalOrigin(baseURL), "content-type": "application/json" },
    data: route.body === undefined ? undefined : JSON.stringify(route.body),
    maxRedirects: 0,
  });
}

const label = (r: PortalRouteCase) => `${r.method} ${r.path}`;

export async function checkSignedOut(
  request: APIRequestContext,
  plan: PortalAuthzPlan,
  baseURL?: string,
): Promise<void> {
  for (const route of plan.routes) {
    const res = await send(request, route, baseURL);
    expect(res.status(), `${label(route)} signed out`).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code, label(route)).toBe("unauthenticated");
  }
  for (const page of plan.pages) {
    const res = await request.get(page, { maxRedirects: 0 });
    expect(res.status(), `${page} signed out`).toBeGreaterThanOrEqual(300);
    expect(res.status(), `${page} signed out`).toBeLessThan(400);
    const location = new URL(res.headers().location ?? "", "http://x");
    expect(location.pathname, `${page} redirects to sign-in`).toBe("/signin");
    expect(location.searchParams.get("callbackUrl"), `${page} comes back after sign-in`).toBe(page);
  }
}

export async function checkSecondUser(
  playwright: PlaywrightWorkerArgs["playwright"],
  baseURL: string | undefined,
  plan: PortalAuthzPlan,
): Promise<void> {
  if (!plan.foreign) return;
  const owner = await playwright.request.newContext({ baseURL });
  const intruder = await playwright.request.newContext({ baseURL });
  try {
    const user = await signUpAndSignIn(owner, baseURL);
    const { routes, pages = [], secrets = [] } = await plan.foreign(owner, user);
    await signUpAndSignIn(intruder, baseURL);
    const noLeak = (text: string, what: string) => {
      for (const s of [user.accountId, ...secrets]) expect(text.includes(s), `${what} leaks ${s}`).toBe(false);
    };
    for (const route of routes) {
      const res = await send(intruder, route, baseURL);
      expect([403, 404], `${label(route)} as another user`).toContain(res.status());
      noLeak(await res.text(), label(route));
    }
    for (const page of pages) {
      const res = await intruder.get(page, { maxRedirects: 0 });
      expect([403, 404], `${page} as another user`).toContain(res.status());
      noLeak(await res.text(), page);
    }
  } finally {
    await owner.dispose();
    await intruder.dispose();
  }
}
