/** Rejects a request with a reason the requester sees. */
import { rejectAccessRequest } from "@/lib/domain/access-requests";
import { adminIdParams, rejectBody } from "@/lib/portal/admin-schemas";
import { portalRoute } from "../../../../portal/portal-route";
import { asAdmin } from "../../../admin-actor";

export const runtime = "nodejs";

export const POST = portalRoute(
  { admin: true, params: adminIdParams, body: rejectBody },
  ({ db, actor, params, body }) => rejectAccessRequest(db, params.id, body.reason, asAdmin(actor)),
);
