/**
 * Every portal route (app/api/portal/**\/route.ts, one per exported method) against the permission table
 * (lib/portal/route-rules.ts), and the role × permission grid the issue spells out, for the unit and e2e checks.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PORTAL_ROUTE_RULES, type PortalRule } from "../../lib/portal/route-rules";
import type { Permission, Role } from "../../lib/shared/roles";
import { routeFiles } from "./admin-surface";

export interface PortalRoute {
  /** `METHOD /api/portal/...` with dynamic segments as `[name]`: the rule table's key. */
  key: string;
  method: string;
  template: string;
  file: string;
  /** The file serves signed-out visitors (publicPortalRoute). */
  public: boolean;
}

export function portalRouteList(appDir = "app"): PortalRoute[] {
  return routeFiles(join(appDir, "api", "portal"), appDir).flatMap(({ file, template, methods }) => {
    const isPublic = /publicPortalRoute\(/.test(readFileSync(file, "utf8"));
    return methods.map((method) => ({ key: `${method} ${template}`, method, template, file, public: isPublic }));
  });
}

/** Routes no rule names (the wrapper refuses them: nobody can call them). */
export const unruled = (routes: PortalRoute[], rules: Record<string, PortalRule> = PORTAL_ROUTE_RULES) =>
  routes.filter((r) => !Object.hasOwn(rules, r.key)).map((r) => r.key);

/** Rules that name no route (a route renamed or removed). */
export const staleRules = (routes: PortalRoute[], rules: Record<string, PortalRule> = PORTAL_ROUTE_RULES) =>
  Object.keys(rules).filter((k) => !routes.some((r) => r.key === k));

/** Issue 32, word for word: who may do what. */
export const ISSUE_GRID: Record<Permission, Role[]> = {
  read: ["viewer", "developer", "admin", "owner"],
  test_keys: ["developer", "admin", "owner"],
  playground: ["developer", "admin", "owner"],
  test_webhooks: ["developer", "admin", "owner"],
  live_keys: ["admin", "owner"],
  live_webhooks: ["admin", "owner"],
  allowed_origins: ["admin", "owner"],
  members: ["admin", "owner"],
  plan: ["owner"],
  transfer_ownership: ["owner"],
  delete_account: ["owner"],
};

/** A concrete path for a template: each dynamic segment filled with a well-formed id that exists nowhere. */
export const concretePath = (template: string) =>
  template.replace(/\[[^\]]+\]/g, (seg) =>
    seg === "[id]" && template.includes("/keys/")
      ? "key_000000000000000000000000"
      : template.includes("/webhooks/")
        ? "wh_000000000000000000000000"
        : "00000000-0000-4000-8000-000000000000",
  );
