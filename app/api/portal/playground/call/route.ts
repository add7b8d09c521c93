/**
 * POST: one playground request through the in-process gateway, as one of the account's own keys (by id, checked for the
 * member's role: no secret is sent) or with a pasted key (never logged, never returned).
 */
import { playgroundCredential } from "@/lib/domain/playground";
import { callGateway } from "@/lib/server/playground-gateway";
import { playgroundCallBody } from "@/lib/portal/schemas";
import { sharedGateway } from "@/lib/server/gateway";
import { portalRoute } from "../../portal-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = portalRoute({ body: playgroundCallBody }, async ({ request, db, user, body }) => {
  const gateway = await sharedGateway();
  const credential = () => playgroundCredential(db, user, body);
  return callGateway(gateway, new URL(request.url).origin, body, credential);
});
