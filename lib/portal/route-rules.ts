/**
 * The one table where a portal route declares the permission it needs (lib/shared/roles.ts): `METHOD path`, with a
 * dynamic segment written as in the app's folders (`[id]`). The portal route wrapper (lib/portal/route.ts) looks every
 * request up here and refuses a route with no rule; the domain refines by environment (a live key needs `live_keys`).
 * `public` routes serve signed-out visitors. tests/unit/portal-route-rules.test.ts fails when a route file lacks a rule.
 */
import type { Permission } from "../shared/roles";

export type PortalRule = Permission | "public";

export const PORTAL_ROUTE_RULES: Record<string, PortalRule> = {
  "POST /api/portal/signup": "public",
  "POST /api/portal/password-reset": "public",
  "POST /api/portal/password-reset/complete": "public",
  "POST /api/portal/invitations/accept": "public",
  "POST /api/portal/verify-email/resend": "read",
  "POST /api/portal/terms": "read",
  "GET /api/portal/accounts": "read",
  "POST /api/portal/accounts/switch": "read",
  "DELETE /api/portal/accounts/current": "delete_account",
  "GET /api/portal/usage": "read",
  "GET /api/portal/usage/requests": "read",
  "GET /api/portal/usage/stream": "read",
  "GET /api/portal/keys": "read",
  "POST /api/portal/keys": "test_keys",
  "POST /api/portal/keys/[id]/revoke": "test_keys",
  "POST /api/portal/keys/[id]/roll": "test_keys",
  "GET /api/portal/access-requests": "read",
  "POST /api/portal/access-requests": "live_keys",
  "POST /api/portal/access-requests/[id]/key": "live_keys",
  "GET /api/portal/plan": "read",
  "PUT /api/portal/plan": "plan",
  "POST /api/portal/playground/call": "playground",
  "POST /api/portal/playground/stream": "playground",
  "GET /api/portal/webhooks": "read",
  "POST /api/portal/webhooks": "test_webhooks",
  "GET /api/portal/webhooks/[id]": "read",
  "PATCH /api/portal/webhooks/[id]": "test_webhooks",
  "DELETE /api/portal/webhooks/[id]": "test_webhooks",
  "GET /api/portal/webhooks/[id]/deliveries": "read",
  "POST /api/portal/webhooks/[id]/test": "test_webhooks",
  "POST /api/portal/webhooks/[id]/replay": "test_webhooks",
  "POST /api/portal/webhooks/[id]/rotate-secret": "test_webhooks",
  "GET /api/portal/team": "read",
  "POST /api/portal/team/invitations": "members",
  "DELETE /api/portal/team/invitations/[id]": "members",
  "PATCH /api/portal/team/members/[id]": "members",
  "DELETE /api/portal/team/members/[id]": "members",
  "POST /api/portal/team/transfer": "transfer_ownership",
  "GET /api/portal/browser-origins": "read",
  "PUT /api/portal/browser-origins": "allowed_origins",
};

interface CompiledRule {
  method: string;
  pattern: RegExp;
  dynamic: number;
  rule: PortalRule;
}

const COMPILED: CompiledRule[] = Object.entries(PORTAL_ROUTE_RULES).map(([key, rule]) => {
  const [method, path] = key.split(" ");
  const source = path
    .split("/")
    .map((seg) => (/^\[[^\]]+\]$/.test(seg) ? "[^/]+" : seg.replace(/[.*+?^${}()|\\]/g, "\\$&")))
    .join("/");
  return { method, pattern: new RegExp(`^${source}/?$`), dynamic: (path.match(/\[/g) ?? []).length, rule };
});

/** The rule for a request (the most specific match: fewest dynamic segments), or null when no rule names it. */
export function portalRouteRule(method: string, pathname: string): PortalRule | null {
  const hits = COMPILED.filter((r) => r.method === method && r.pattern.test(pathname));
  hits.sort((a, b) => a.dynamic - b.dynamic);
  return hits[0]?.rule ?? null;
}
