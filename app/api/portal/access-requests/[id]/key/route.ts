/** Shows the svc_sk_live_ key of an approved request once (owner); its stored ciphertext is deleted in the same step. */
import { revealAccessKey } from "@/lib/domain/access-requests";
import { readAuthSecret } from "@/lib/crypto/secret-box";
import { portalRoute } from "@/lib/portal/route";
import { portalDb } from "@/lib/server/portal-db";

export const runtime = "nodejs";

export const POST = portalRoute<{ id: string }>(
  async ({ user, actor, params }) =>
    revealAccessKey(await portalDb(), { accountId: user.accountId, requestId: params.id }, actor, readAuthSecret()),
  { owner: true },
);
