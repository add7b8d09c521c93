/** The account's API access requests: list (GET) and submit (POST, owner with a verified e-mail on a paid plan). */
import { listAccessRequests, submitAccessRequest } from "@/lib/domain/access-requests";
import { accessRequestBody } from "@/lib/portal/schemas";
import { portalRoute, readJson } from "@/lib/portal/route";
import { portalDb } from "@/lib/server/portal-db";

export const runtime = "nodejs";

export const GET = portalRoute(async ({ user }) => listAccessRequests(await portalDb(), user.accountId));

export const POST = portalRoute(
  async ({ request, user, actor, requestId }) => {
    const body = accessRequestBody.parse(await readJson(request));
    const created = await submitAccessRequest(
      await portalDb(),
      { accountId: user.accountId, userId: user.userId, ...body },
      actor,
    );
    return Response.json(
      { data: created },
      { status: 201, headers: { "x-request-id": requestId, "cache-control": "no-store" } },
    );
  },
  { owner: true },
);
