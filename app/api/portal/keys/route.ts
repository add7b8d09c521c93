/** The signed-in account's API keys: list (GET) and create (POST, owner; the key is in this answer only). */
import { createOwnKey, listKeys } from "@/lib/domain/keys";
import { createKeyBody } from "@/lib/portal/schemas";
import { portalRoute, readJson } from "@/lib/portal/route";
import { portalDb } from "@/lib/server/portal-db";

export const runtime = "nodejs";

export const GET = portalRoute(async ({ user }) => listKeys(await portalDb(), user.accountId));

export const POST = portalRoute(
  async ({ request, user, actor, requestId }) => {
    const body = createKeyBody.parse(await readJson(request));
    const created = await createOwnKey(
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
