/** Revokes one of the account's keys; calls with it get 401 invalid_api_key within the key cache's lifetime. */
import { changeKeyStatus } from "@/lib/domain/keys";
import { idParams } from "@/lib/portal/schemas";
import { portalRoute } from "../../../portal-route";

export const runtime = "nodejs";

export const POST = portalRoute({ params: idParams }, async ({ db, user, actor, params }) =>
  changeKeyStatus(db, params.id, "revoke", actor, user.accountId),
);
