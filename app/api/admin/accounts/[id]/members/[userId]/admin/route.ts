/** Makes a member an admin or removes the flag (never one's own, never the last admin's). */
import { requireMember, setAdminFlag } from "@/lib/domain/admin-accounts";
import { adminFlagBody, adminMemberParams } from "@/lib/portal/admin-schemas";
import { portalRoute } from "../../../../../../portal/portal-route";
import { asAdmin } from "../../../../../admin-actor";

export const runtime = "nodejs";

export const POST = portalRoute(
  { admin: true, params: adminMemberParams, body: adminFlagBody },
  async ({ db, actor, params, body }) => {
    await requireMember(db, params.id, params.userId);
    return setAdminFlag(db, params.userId, body.admin, asAdmin(actor));
  },
);
