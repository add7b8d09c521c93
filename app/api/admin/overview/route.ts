/** The admin overview's numbers: calls, top accounts, error and limit rates, data freshness, queues. */
import { adminOverview } from "@/lib/domain/admin-overview";
import { portalRoute } from "../../portal/portal-route";

export const runtime = "nodejs";

export const GET = portalRoute({ admin: true }, ({ db }) => adminOverview(db));
