/** Shows the svc_sk_live_ key of an approved request once; its stored ciphertext is deleted in the same step. */
import { revealAccessKey } from "@/lib/domain/access-requests";
import { readAuthSecret } from "@/lib/crypto/secret-box";
import { idParams } from "@/lib/portal/schemas";
import { portalRoute } from "../../../portal-route";

export const runtime = "nodejs";

export const POST = portalRoute({ params: idParams }, async ({ db, user, actor, params }) =>
  revealAccessKey(db, { accountId: user.accountId, requestId: params.id }, actor, readAuthSecret()),
);
