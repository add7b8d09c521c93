/** Switches the account the portal acts on to another the user belongs to (404 for one they do not). */
import { switchAccount } from "@/lib/domain/team";
import { switchAccountBody } from "@/lib/portal/schemas";
import { portalRoute } from "../../portal-route";

export const runtime = "nodejs";

export const POST = portalRoute({ body: switchAccountBody }, async ({ db, user, body }) =>
  switchAccount(db, user.userId, body.accountId),
);
