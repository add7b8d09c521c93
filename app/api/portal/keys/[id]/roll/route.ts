/** Rolls one of the account's keys: the replacement is in this answer only; the old key expires after the overlap. */
import { rollKey } from "@/lib/domain/key-roll";
import { idParams, rollKeyBody } from "@/lib/portal/schemas";
import { portalRoute } from "../../../portal-route";

export const runtime = "nodejs";

export const POST = portalRoute({ params: idParams, body: rollKeyBody }, async ({ db, user, actor, params, body }) =>
  rollKey(db, { accountId: user.accountId, userId: user.userId, keyId: params.id, overlap: body.overlap }, actor),
);
