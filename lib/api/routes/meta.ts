/** Health and the API reference: no key, never metered (CONTRACT §1). */
import { VERSION } from "../../version";
import { defineRoute, type RouteDef } from "../route";
import { schemas } from "../../contract/responses";
import { failingParts } from "../../db/store-status";

const startedAt = Date.now();
export const HEALTH_CHECK_TTL_MS = 1000;

/** The database probe's last answer per pool, shared for a second so load balancers can poll at any rate. */
const checks = new WeakMap<object, { at: number; reachable: Promise<boolean> }>();

export function databaseReachable(pool: object, probe: () => Promise<unknown>, now = Date.now()): Promise<boolean> {
  const cached = checks.get(pool);
  if (cached && now - cached.at < HEALTH_CHECK_TTL_MS) return cached.reachable; // also joins a probe still in flight
  const reachable = Promise.race([
    probe().then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((resolve) => setTimeout(resolve, 2000, false).unref()),
  ]);
  checks.set(pool, { at: now, reachable });
  return reachable;
}

export const health = defineRoute({
  method: "GET",
  path: "/api/v1/health",
  family: "B",
  tags: ["Service"],
  authenticated: false,
  summary: "Health check and version",
  description:
    "status ok (200), or degraded (503) when the database does not answer within 2 s (the check is shared for 1 s) or admission is failing; version; uptime in seconds.",
  response: schemas.health,
  handler: async ({ database }) => {
    const reachable = await databaseReachable(database.sql, () => database.sql`select 1`);
    const ok = reachable && failingParts(database.sql).length === 0;
    return {
      status: ok ? 200 : 503, // a load balancer takes a degraded process out
      data: {
        status: ok ? "ok" : "degraded",
        version: VERSION,
        uptime: Math.round((Date.now() - startedAt) / 100) / 10,
      },
    };
  },
});

/** The reference is built lazily from the route table, so it always documents exactly what is served. */
export function openApiRoute(build: () => unknown): RouteDef {
  let doc: unknown;
  return defineRoute({
    method: "GET",
    path: "/api/v1/openapi.json",
    family: "A",
    tags: ["Service"],
    authenticated: false,
    summary: "This API reference (OpenAPI 3.1)",
    description: "Generated from the schemas that validate requests.",
    handler: () => ({ data: (doc ??= build()) }),
  });
}
