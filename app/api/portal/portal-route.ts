/** The portal's route wrappers bound to the process's one pool (the gateway's), so route files never open it. */
import { portalRoutes } from "@/lib/portal/route";
import { portalDatabase } from "@/lib/server/portal-db";

export const { portalRoute, publicPortalRoute } = portalRoutes(portalDatabase);
