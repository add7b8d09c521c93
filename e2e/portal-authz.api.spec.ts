/**
 * The shared authorization checks (tests/helpers/portal-authz.ts) run for every portal route and dashboard page:
 * signed out → 401 or a redirect to sign-in; a second user → 404 or 403 on the first user's keys, usage, requests and
 * access requests. A guard fails when a route or page file exists that this list does not name.
 */
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, test } from "@playwright/test";
import { verifyEmail } from "../tests/helpers/e2e-cli";
import {
  checkSecondUser,
  checkSignedOut,
  type PortalAuthzPlan,
  type PortalRouteCase,
} from "../tests/helpers/portal-authz";
import { portalOrigin } from "../tests/helpers/portal";

/** Routes that need no session (sign-up and password reset) are checked for CSRF and bad input in portal-security.api.spec.ts. */
const PUBLIC_ROUTES = [
  "/api/portal/signup",
  "/api/portal/password-reset",
  "/api/portal/password-reset/complete",
  "/api/portal/invitations/accept",
];
const ID = "00000000-0000-4000-8000-000000000000";
const WH = "wh_000000000000000000000000"; // a second user's webhooks are checked in portal-webhooks.ui.spec.ts

const ROUTES: PortalRouteCase[] = [
  { method: "GET", path: "/api/portal/keys" },
  { method: "POST", path: "/api/portal/keys", body: { name: "x", env: "test" } },
  { method: "POST", path: "/api/portal/keys/key_000000000000000000000000/revoke", body: {} },
  { method: "POST", path: "/api/portal/keys/key_000000000000000000000000/roll", body: { overlap: "1h" } },
  { method: "GET", path: "/api/portal/access-requests" },
  {
    method: "POST",
    path: "/api/portal/access-requests",
    body: { company: "x", useCase: "y", expectedVolume: "under_1k" },
  },
  { method: "POST", path: `/api/portal/access-requests/${ID}/key`, body: {} },
  { method: "GET", path: "/api/portal/plan" },
  { method: "PUT", path: "/api/portal/plan", body: { plan: "pro" } },
  { method: "GET", path: "/api/portal/usage" },
  { method: "GET", path: "/api/portal/usage/requests" },
  { method: "GET", path: "/api/portal/usage/stream" },
  { method: "POST", path: "/api/portal/playground/call", body: { operation: "GET /api/v1/data/yield-curve" } },
  { method: "POST", path: "/api/portal/playground/stream", body: { operation: "GET /api/v1/stream" } },
  { method: "POST", path: "/api/portal/verify-email/resend", body: {} },
  { method: "POST", path: "/api/portal/terms", body: { version: 1 } },
  { method: "GET", path: "/api/portal/webhooks" },
  { method: "POST", path: "/api/portal/webhooks", body: {} },
  { method: "GET", path: `/api/portal/webhooks/${WH}` },
  { method: "PATCH", path: `/api/portal/webhooks/${WH}`, body: { status: "paused" } },
  { method: "DELETE", path: `/api/portal/webhooks/${WH}` },
  { method: "GET", path: `/api/portal/webhooks/${WH}/deliveries` },
  { method: "POST", path: `/api/portal/webhooks/${WH}/test`, body: {} },
  { method: "POST", path: `/api/portal/webhooks/${WH}/replay`, body: {} },
  { method: "POST", path: `/api/portal/webhooks/${WH}/rotate-secret`, body: {} },
  { method: "GET", path: "/api/portal/team" },
  { method: "POST", path: "/api/portal/team/invitations", body: { email: "x@example.com", role: "viewer" } },
  { method: "DELETE", path: `/api/portal/team/invitations/${ID}` },
  { method: "PATCH", path: `/api/portal/team/members/${ID}`, body: { role: "viewer" } },
  { method: "DELETE", path: `/api/portal/team/members/${ID}` },
  { method: "POST", path: "/api/portal/team/transfer", body: { userId: ID } },
  { method: "GET", path: "/api/portal/accounts" },
  { method: "POST", path: "/api/portal/accounts/switch", body: { accountId: ID } },
  // Never the account's name or e-mail: the signed-out and second-user checks must not delete anything.
  { method: "DELETE", path: "/api/portal/accounts/current", body: { confirm: "not this account" } },
  { method: "GET", path: "/api/portal/browser-origins" },
  { method: "PUT", path: "/api/portal/browser-origins", body: { origins: [] } },
];
const PAGES = [
  "/dashboard",
  "/dashboard/keys",
  "/dashboard/access",
  "/dashboard/plan",
  "/dashboard/usage",
  "/dashboard/logs",
  "/dashboard/playground",
  "/dashboard/webhooks",
  "/dashboard/team",
];

function files(dir: string, name: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const p = join(dir, entry);
    return statSync(p).isDirectory() ? files(p, name) : entry === name ? [p] : [];
  });
}
const template = (file: string, root: string, name: string) =>
  "/" +
  relative(root, file)
    .replace(new RegExp(`/?${name.replace(".", "\\.")}$`), "")
    .replace(/\[[^\]]+\]/g, ":param");

test("every portal route file and dashboard page is in the authorization plan", () => {
  const normalise = (p: string) => p.replace(/key_0+|wh_0+|[0-9a-f-]{36}/g, ":param");
  const routes = new Set(files("app/api/portal", "route.ts").map((f) => template(f, "app", "route.ts")));
  const planned = new Set([...ROUTES.map((r) => normalise(r.path)), ...PUBLIC_ROUTES]);
  expect([...routes].filter((r) => !planned.has(r)).sort(), "portal routes missing from the plan").toEqual([]);
  const pages = files("app/dashboard", "page.tsx").map((f) => template(f, "app", "page.tsx"));
  expect(pages.filter((p) => !PAGES.includes(p)).sort(), "dashboard pages missing from the plan").toEqual([]);
});

test("signed out, every portal route answers 401 and every dashboard page redirects to sign-in", async ({
  request,
  baseURL,
}) => {
  await checkSignedOut(request, { routes: ROUTES, pages: PAGES }, baseURL);
});

test("a second user gets 404 or 403 for the first user's keys, usage, request log and access requests", async ({
  playwright,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const plan: PortalAuthzPlan = {
    routes: ROUTES,
    pages: PAGES,
    foreign: async (owner, user) => {
      const headers = portalOrigin(baseURL);
      await verifyEmail(baseURL, user.email);
      expect((await owner.put("/api/portal/plan", { data: { plan: "starter" }, headers })).status()).toBe(200);
      const created = await owner.post("/api/portal/keys", { data: { name: "owner key", env: "test" }, headers });
      expect(created.status()).toBeLessThan(300);
      const key = ((await created.json()) as { data: { id: string; key: string } }).data;
      const asked = await owner.post("/api/portal/access-requests", {
        data: { company: "Acme", useCase: "Research dashboards for our analysts", expectedVolume: "under_1k" },
        headers,
      });
      expect(asked.status()).toBeLessThan(300);
      const requestId = ((await asked.json()) as { data: { id: string } }).data.id;
      return {
        routes: [
          { method: "POST", path: `/api/portal/keys/${key.id}/revoke`, body: {} },
          { method: "POST", path: `/api/portal/keys/${key.id}/roll`, body: { overlap: "now" } },
          { method: "GET", path: `/api/portal/usage/requests?key=${key.id}` },
          { method: "POST", path: `/api/portal/access-requests/${requestId}/key`, body: {} },
        ],
        // The ids are the intruder's own input (echoing them reveals nothing); the key and the owner's e-mail must never appear.
        secrets: [key.key, user.email],
      };
    },
  };
  await checkSecondUser(playwright, baseURL, plan);
});
