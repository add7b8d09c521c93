/** The audit log, filtered, newest first, a page at a time (cursor). Read-only: no route changes it. */
import { queryAudit } from "@/lib/domain/admin-audit";
import { auditQuery } from "@/lib/portal/admin-schemas";
import { portalRoute } from "../../portal/portal-route";

export const runtime = "nodejs";

export const GET = portalRoute({ admin: true, query: auditQuery }, ({ db, query }) => queryAudit(db, query));
