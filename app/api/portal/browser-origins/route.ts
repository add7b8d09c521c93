/** The account's "Allowed browser origins" (GET); replaced as a whole by an Admin or the Owner (PUT), audited. */
import { browserOrigins, setBrowserOrigins } from "@/lib/domain/browser-origins";
import { browserOriginsBody } from "@/lib/portal/schemas";
import { portalRoute } from "../portal-route";

export const runtime = "nodejs";

export const GET = portalRoute({}, async ({ db, user }) => ({ origins: await browserOrigins(db, user.accountId) }));

export const PUT = portalRoute({ body: browserOriginsBody }, async ({ db, user, actor, body }) => ({
  origins: await setBrowserOrigins(db, { accountId: user.accountId, origins: body.origins }, actor),
}));
