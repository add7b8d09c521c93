/**
 * Every portal route declares its permission in the one table (lib/portal/route-rules.ts): a route file without a rule
 * fails here (and the wrapper refuses it at run time); each route × role decision matches the issue's grid.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { PORTAL_ROUTE_RULES, portalRouteRule } from "../../lib/portal/route-rules";
import { can, PERMISSIONS, ROLES } from "../../lib/shared/roles";
import {
  concretePath,
  ISSUE_GRID,
  type PortalRoute,
  portalRouteList,
  staleRules,
  unruled,
} from "../helpers/portal-surface";

const routes = portalRouteList();

test("every portal route file and method has a permission rule, and every rule names a route", () => {
  assert.ok(routes.length >= 35, `found only ${routes.length} portal routes`);
  assert.deepEqual(unruled(routes), [], "portal routes without a permission rule in lib/portal/route-rules.ts");
  assert.deepEqual(staleRules(routes), [], "rules naming no route");
});

test("a new route without a rule is caught (the check can fail)", () => {
  const added: PortalRoute = {
    key: "GET /api/portal/logs",
    method: "GET",
    template: "/api/portal/logs",
    file: "app/api/portal/logs/route.ts",
    public: false,
  };
  assert.deepEqual(unruled([...routes, added]), ["GET /api/portal/logs"]);
  assert.equal(portalRouteRule("GET", "/api/portal/logs"), null, "the wrapper finds no rule, so it refuses");
});

test("public rules are exactly the routes that serve signed-out visitors", () => {
  for (const r of routes)
    assert.equal(PORTAL_ROUTE_RULES[r.key] === "public", r.public, `${r.key}: public rule vs publicPortalRoute`);
});

test("the role grid is the issue's: Viewer < Developer < Admin < Owner", () => {
  for (const p of PERMISSIONS)
    for (const role of ROLES) assert.equal(can(role, p), ISSUE_GRID[p].includes(role), `${role} × ${p}`);
});

test("each route × role: the wrapper's lookup finds the route's own rule and allows exactly the grid's roles", () => {
  let cells = 0;
  for (const r of routes) {
    const rule = portalRouteRule(r.method, concretePath(r.template));
    assert.equal(rule, PORTAL_ROUTE_RULES[r.key], `${r.key} resolves to its own rule`);
    if (rule === "public" || rule === null) continue;
    for (const role of ROLES) {
      assert.equal(can(role, rule), ISSUE_GRID[rule].includes(role), `${role} × ${r.key}`);
      cells++;
    }
  }
  assert.ok(cells >= 4 * 30);
});

test("a static segment wins over a dynamic one, and a method the table lacks has no rule", () => {
  assert.equal(portalRouteRule("GET", "/api/portal/usage/requests"), "read");
  assert.equal(portalRouteRule("POST", "/api/portal/team/transfer"), "transfer_ownership");
  assert.equal(portalRouteRule("DELETE", "/api/portal/accounts/current"), "delete_account");
  assert.equal(portalRouteRule("PUT", "/api/portal/keys"), null);
  assert.equal(portalRouteRule("GET", "/api/portal/keys/x/roll/extra"), null);
});
