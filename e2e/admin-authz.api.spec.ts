/**
 * Every admin page, route and server action, enumerated from the app's files (tests/helpers/admin-surface.ts): a
 * signed-out visitor gets 401 or a redirect to sign-in, a signed-in user without the admin flag 403 or 404, and
 * nothing is written either way.
 */
import { expect, test } from "@playwright/test";
import { adminPages, adminRoutes, adminServerActionFiles } from "../tests/helpers/admin-surface";
import { e2eCli } from "../tests/helpers/e2e-cli";
import { portalOrigin, signUpAndSignIn } from "../tests/helpers/portal";

const routes = adminRoutes();
const pages = adminPages();

test("the admin surface is found in the app's files", () => {
  expect(pages).toEqual(
    expect.arrayContaining(["/admin", "/admin/licensing", "/admin/access-requests", "/admin/accounts", "/admin/audit"]),
  );
  expect(routes.length).toBeGreaterThanOrEqual(15);
  // Admin actions go through the checked routes; a server action would need its own entry in these checks.
  expect(adminServerActionFiles(), "server actions under app/admin or components/admin").toEqual([]);
});

test("signed out: every admin route answers 401 and every admin page redirects to sign-in", async ({
  request,
  baseURL,
}) => {
  for (const r of routes) {
    const res = await request.fetch(r.path, {
      method: r.method,
      headers: { ...portalOrigin(baseURL), "content-type": "application/json" },
      data: r.method === "GET" ? undefined : "{}",
      maxRedirects: 0,
    });
    expect(res.status(), `${r.method} ${r.path}`).toBe(401);
  }
  for (const page of pages) {
    const res = await request.get(page, { maxRedirects: 0 });
    expect(res.status(), page).toBeGreaterThanOrEqual(300);
    expect(res.status(), page).toBeLessThan(400);
    expect(new URL(res.headers().location ?? "", "http://x").pathname, `${page} → sign-in`).toBe("/signin");
  }
});

test("a user without the admin flag gets 403 on every admin route and 404 on every admin page", async ({
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await signUpAndSignIn(request, baseURL);
  for (const r of routes) {
    const res = await request.fetch(r.path, {
      method: r.method,
      headers: { ...portalOrigin(baseURL), "content-type": "application/json" },
      data: r.method === "GET" ? undefined : JSON.stringify({ admin: true, status: "active", plan: "enterprise" }),
      maxRedirects: 0,
    });
    expect(res.status(), `${r.method} ${r.path}`).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("forbidden");
  }
  for (const page of pages) {
    const res = await request.get(page, { maxRedirects: 0 });
    expect(res.status(), page).toBe(404);
  }
});

test("as an admin, bad input on every admin write route is refused with a clear message and writes nothing", {
  tag: "@serial",
}, async ({ request, baseURL }) => {
  test.setTimeout(120_000);
  const admin = await signUpAndSignIn(request, baseURL);
  expect((await e2eCli(baseURL, "admin", "grant", "--email", admin.email)).code).toBe(0);
  const newest = async () =>
    ((await (await request.get("/api/admin/audit")).json()) as { data: { rows: { id: number }[] } }).data.rows[0]?.id;
  const before = await newest();
  for (const r of routes.filter((x) => x.method !== "GET")) {
    const res = await request.fetch(r.path, {
      method: r.method,
      headers: { ...portalOrigin(baseURL), "content-type": "application/json" },
      data: JSON.stringify({ bogus: 1 }),
    });
    expect([400, 404], `${r.method} ${r.path}`).toContain(res.status());
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.message.length, `${r.path} says why`).toBeGreaterThan(5);
  }
  for (const path of ["/api/admin/audit?from=soon", "/api/admin/accounts?q=a", "/api/admin/licensing/history"]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(400);
  }
  expect(await newest(), "no audit row was written").toBe(before);
});
