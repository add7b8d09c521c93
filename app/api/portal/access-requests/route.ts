/** The account's API access requests: list (GET) and submit (POST, an Admin with a verified e-mail on a paid plan). */
import { listAccessRequests, submitAccessRequest } from "@/lib/domain/access-requests";
import { accessRequestBody } from "@/lib/portal/schemas";
import { portalRoute } from "../portal-route";

export const runtime = "nodejs";

export const GET = portalRoute({}, async ({ db, user }) => listAccessRequests(db, user.accountId));

export const POST = portalRoute({ body: accessRequestBody, status: 201 }, async ({ db, user, actor, body }) =>
  submitAccessRequest(db, { accountId: user.accountId, userId: user.userId, ...body }, actor),
);
