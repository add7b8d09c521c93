import type { EndpointSeed } from "../../domain/seed";
import type { RouteDef } from "../route";
import { buildOpenApi } from "../openapi";
import { alertRoutes } from "./alerts";
import { alertManagementRoutes } from "./alerts-manage";
import { discoveryRoutes } from "./discovery";
import { familyARoutes } from "./family-a";
import { familyBRoutes } from "./family-b";
import { historyRoutes } from "./history";
import { health, openApiRoute } from "./meta";
import { openStream } from "./stream";

/** Routes that are metered and licensed: the endpoint catalogue seeded into the database. */
export const meteredRoutes: RouteDef[] = [
  ...familyARoutes,
  ...familyBRoutes,
  ...historyRoutes,
  ...discoveryRoutes,
  ...alertRoutes,
  ...alertManagementRoutes,
  openStream,
];

/** The rows `seedReferenceData` keeps in the endpoints table. */
export const endpointCatalogue = (): EndpointSeed[] =>
  meteredRoutes.map((r) => ({ id: r.id, method: r.method, path: r.path, family: r.family, summary: r.summary }));

export const allRoutes: RouteDef[] = [...meteredRoutes, health];
allRoutes.push(openApiRoute(() => buildOpenApi(allRoutes)));
