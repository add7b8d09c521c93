import type { RouteDef } from "../route";
import { buildOpenApi } from "../openapi";
import { alertRoutes } from "./alerts";
import { familyARoutes } from "./family-a";
import { familyBRoutes } from "./family-b";
import { health, openApiRoute } from "./meta";

/** Routes that are metered and licensed: the endpoint catalogue seeded into the database. */
export const meteredRoutes: RouteDef[] = [...familyARoutes, ...familyBRoutes, ...alertRoutes];

export const allRoutes: RouteDef[] = [...meteredRoutes, health];
allRoutes.push(openApiRoute(() => buildOpenApi(allRoutes)));
