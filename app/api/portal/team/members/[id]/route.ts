/** One member below Owner: change their role (PATCH) or remove them (DELETE; their sessions end at once). */
import { changeMemberRole, removeMember } from "@/lib/domain/team";
import { idParams, memberRoleBody } from "@/lib/portal/schemas";
import { portalRoute } from "../../../portal-route";

export const runtime = "nodejs";

export const PATCH = portalRoute(
  { params: idParams, body: memberRoleBody },
  async ({ db, user, actor, params, body }) => changeMemberRole(db, user.accountId, params.id, body.role, actor),
);

export const DELETE = portalRoute({ params: idParams }, async ({ db, user, actor, params }) =>
  removeMember(db, user.accountId, params.id, actor),
);
