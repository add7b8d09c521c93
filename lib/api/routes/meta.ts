/** Health and the API reference: no key, never metered (docs/api-contract.md §1). */
import { VERSION } from "../../version";
import { REQUEST_ERRORS } from "../errors";
import { defineRoute, type RouteDef } from "../route";
import { schemas } from "../../contract/responses";
import { openApiDocument, type OpenApiDocument } from "../../contract/openapi-document";
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
  operationId: "getHealth",
  method: "GET",
  path: "/api/v1/health",
  family: "B",
  envelope: "B",
  errors: REQUEST_ERRORS,
  tags: ["Service"],
  authenticated: false,
  summary: "Health check and version",
  description:
    "status ok (200), or degraded (503) when the database does not answer within 2 s (the check is shared for 1 s) " +
    "or admission is failing; version; uptime in seconds.",
  response: schemas.health,
  handler: async ({ database }) => {
    const reachable = await databaseReachable(database.sql, () => database.sql`select 1`);
    const ok = reachable && failingParts(database.sql).length === 0;
    return {
      status: ok ? 200 : 503, // a load balancer takes a degraded process out
      data: {
        status: ok ? ("ok" as const) : ("degraded" as const),
        version: VERSION,
        uptime: Math.round((Date.now() - startedAt) / 100) / 10,
      },
    };
  },
});

/** The reference is built lazily from the route table, so it always documents exactly what is served. */
export function openApiRoute(build: () => OpenApiDocument): RouteDef {
  let doc: OpenApiDocument | undefined;
  return defineRoute({
    operationId: "getOpenApiDocument",
    method: "GET",
    path: "/api/v1/openapi.json",
    family: "A",
    envelope: "none",
    errors: REQUEST_ERRORS,
    response: openApiDocument,
    tags: ["Service"],
    authenticated: false,
    summary: "This API reference (OpenAPI 3.1)",
    description: "Generated from the schemas that validate requests.",
    handler: () => ({ data: (doc ??= build()) }),
  });
}
