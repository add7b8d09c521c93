/** The Owner hands the account to another member (who becomes Owner; the previous Owner becomes Admin). */
import { transferOwnership } from "@/lib/domain/team";
import { transferBody } from "@/lib/portal/schemas";
import { portalRoute } from "../../portal-route";

export const runtime = "nodejs";

export const POST = portalRoute({ body: transferBody }, async ({ db, user, actor, body }) =>
  transferOwnership(db, user.accountId, body.userId, actor),
);
