/** POST: one playground request through the in-process gateway, with a pasted key or the account's playground key (never logged, never returned, never created here). */
import { playgroundKey } from "@/lib/domain/playground";
import { callGateway } from "@/lib/server/playground-gateway";
import { playgroundCallBody } from "@/lib/portal/schemas";
import { sharedGateway } from "@/lib/server/gateway";
import { portalRoute } from "../../portal-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = portalRoute({ body: playgroundCallBody }, async ({ request, db, user, body }) => {
  const gateway = await sharedGateway();
  const key = async () => body.key ?? (await playgroundKey(db, user.accountId)).key;
  return callGateway(gateway.handle, new URL(request.url).origin, body, key);
});
