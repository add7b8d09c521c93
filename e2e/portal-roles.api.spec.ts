/**
 * Every portal route × every role, over HTTP against the running app: an Owner signs up and invites an Admin, a
 * Developer and a Viewer (links from the mails the test SMTP server caught); each of the four then calls every route
 * the app has (read from app/api/portal). A role the rule table (lib/portal/route-rules.ts) denies gets 403 `forbidden`
 * naming the role; an allowed role never does (it may get 400 or 404 for the ids that exist nowhere). A route file
 * without a rule fails tests/unit/portal-route-rules.test.ts and is refused for every role here.
 */
import { expect, test } from "@playwright/test";
import { PORTAL_ROUTE_RULES } from "../lib/portal/route-rules";
import { can, ROLES, type Role } from "../lib/shared/roles";
import { e2eMailbox } from "../tests/helpers/e2e-mailbox";
import { portalOrigin, signUpAndSignIn } from "../tests/helpers/portal";
import { concretePath, portalRouteList } from "../tests/helpers/portal-surface";
import { inviteAndJoin } from "../tests/helpers/team";

const mailbox = e2eMailbox(); // every message the e2e server sent (e2e/serve.mjs)

/** Bodies that pass each route's schema, so the answer is the permission's, not a 400 for the shape. */
const BODIES: Record<string, unknown> = {
  "POST /api/portal/keys": { name: "role check", env: "test" },
  "POST /api/portal/keys/[id]/roll": { overlap: "1h" },
  "POST /api/portal/access-requests": { company: "x", useCase: "y", expectedVolume: "under_1k" },
  "PUT /api/portal/plan": { plan: "sandbox" },
  "POST /api/portal/playground/call": { operation: "GET /api/v1/data/yield-curve" },
  // A key that does not exist: the gateway refuses it at once instead of opening a stream that never ends.
  "POST /api/portal/playground/stream": { operation: "GET /api/v1/stream", key: "svc_test_notakey" },
  "POST /api/portal/terms": { version: 1 },
  "PATCH /api/portal/webhooks/[id]": { status: "paused" },
  "POST /api/portal/team/invitations": { email: "nobody@example.com", role: "viewer" },
  "PATCH /api/portal/team/members/[id]": { role: "viewer" },
  "POST /api/portal/team/transfer": { userId: "00000000-0000-4000-8000-000000000000" },
  "POST /api/portal/accounts/switch": { accountId: "00000000-0000-4000-8000-000000000000" },
  // A confirmation that matches nothing: the Owner gets 400 on `confirm` (allowed), and the account survives the test.
  "DELETE /api/portal/accounts/current": { confirm: "not this account" },
  "PUT /api/portal/browser-origins": { origins: [] },
};

test("every portal route × role: denied roles get 403 naming their role, allowed roles never do", async ({
  playwright,
  baseURL,
}) => {
  test.setTimeout(300_000);
  const contexts = Object.fromEntries(
    await Promise.all(ROLES.map(async (r) => [r, await playwright.request.newContext({ baseURL })] as const)),
  ) as Record<Role, Awaited<ReturnType<typeof playwright.request.newContext>>>;
  try {
    await signUpAndSignIn(contexts.owner, baseURL);
    for (const role of ["admin", "developer", "viewer"] as const)
      await inviteAndJoin(contexts.owner, contexts[role], mailbox, role, baseURL);
    const routes = portalRouteList().filter((r) => !r.public);
    expect(routes.length).toBeGreaterThan(30);
    let denied = 0;
    for (const role of ROLES) {
      for (const route of routes) {
        const rule = PORTAL_ROUTE_RULES[route.key];
        const body = BODIES[route.key];
        const res = await contexts[role].fetch(concretePath(route.template), {
          method: route.method,
          headers: { ...portalOrigin(baseURL), "content-type": "application/json" },
          data: body === undefined ? (route.method === "GET" ? undefined : "{}") : JSON.stringify(body),
          maxRedirects: 0,
        });
        const text = await res.text();
        const refusedForRole = res.status() === 403 && /Your role/.test(text);
        const label = `${role} ${route.key} → ${res.status()} ${text.slice(0, 160)}`;
        expect(rule, `${route.key} has a rule`).toBeDefined();
        expect(refusedForRole, label).toBe(!can(role, rule === "public" ? "read" : rule));
        if (refusedForRole) denied++;
      }
    }
    expect(denied, "some routes are denied to some roles").toBeGreaterThan(20);
  } finally {
    for (const c of Object.values(contexts)) await c.dispose();
  }
});
