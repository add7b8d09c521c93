/** Rolls one of the account's keys (owner): the replacement is in this answer only; the old key expires after the overlap. */
import { rollKey } from "@/lib/domain/key-roll";
import { rollKeyBody } from "@/lib/portal/schemas";
import { portalRoute, readJson } from "@/lib/portal/route";
import { portalDb } from "@/lib/server/portal-db";

export const runtime = "nodejs";

export const POST = portalRoute<{ id: string }>(
  async ({ request, user, actor, params }) => {
    const { overlap } = rollKeyBody.parse(await readJson(request));
    return rollKey(
      await portalDb(),
      { accountId: user.accountId, userId: user.userId, keyId: params.id, overlap },
      actor,
    );
  },
  { owner: true },
);
