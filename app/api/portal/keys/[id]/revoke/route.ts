/** Revokes one of the account's keys (owner); calls with it get 401 invalid_api_key within the key cache's lifetime. */
import { changeKeyStatus } from "@/lib/domain/keys";
import { portalRoute } from "@/lib/portal/route";
import { portalDb } from "@/lib/server/portal-db";

export const runtime = "nodejs";

export const POST = portalRoute<{ id: string }>(
  async ({ user, actor, params }) => changeKeyStatus(await portalDb(), params.id, "revoke", actor, user.accountId),
  { owner: true },
);
