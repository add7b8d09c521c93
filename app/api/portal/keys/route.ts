/** The signed-in account's API keys: list (GET) and create (POST; the key is in this answer only). */
import { createOwnKey, listKeys } from "@/lib/domain/keys";
import { createKeyBody } from "@/lib/portal/schemas";
import { portalRoute } from "../portal-route";

export const runtime = "nodejs";

export const GET = portalRoute({}, async ({ db, user }) => listKeys(db, user.accountId));

export const POST = portalRoute({ body: createKeyBody, status: 201 }, async ({ db, user, actor, body }) =>
  createOwnKey(db, { accountId: user.accountId, userId: user.userId, ...body }, actor),
);
