/** The access-request queue: pending first, oldest first, with the age in business days. */
import { listAllAccessRequests } from "@/lib/domain/access-requests";
import { portalRoute } from "../../portal/portal-route";

export const runtime = "nodejs";

export const GET = portalRoute({ admin: true }, ({ db }) => listAllAccessRequests(db));
