/** One endpoint's licensing changes, newest first, from the audit log. */
import { licensingHistory } from "@/lib/domain/admin-licensing";
import { licensingHistoryQuery } from "@/lib/portal/admin-schemas";
import { portalRoute } from "../../../portal/portal-route";

export const runtime = "nodejs";

export const GET = portalRoute({ admin: true, query: licensingHistoryQuery }, ({ db, query }) =>
  licensingHistory(db, query.endpointId),
);
