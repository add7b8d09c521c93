/** Withdraws a pending invitation (its link stops working). */
import { withdrawInvitation } from "@/lib/domain/invitations";
import { idParams } from "@/lib/portal/schemas";
import { portalRoute } from "../../../portal-route";

export const runtime = "nodejs";

export const DELETE = portalRoute({ params: idParams }, async ({ db, user, actor, params }) =>
  withdrawInvitation(db, user.accountId, params.id, actor),
);
