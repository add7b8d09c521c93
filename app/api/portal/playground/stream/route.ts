/**
 * POST: opens the live stream (openStream) for the playground through the in-process gateway, with a pasted key or the
 * account's playground key; answers text/event-stream, or the gateway's refusal as a playground answer. One stream per
 * user, closed after a few minutes or when the browser stops reading (lib/server/playground-stream.ts).
 */
import { playgroundKey } from "@/lib/domain/playground";
import { openPlaygroundStream } from "@/lib/server/playground-stream";
import { playgroundCallBody } from "@/lib/portal/schemas";
import { sharedGateway } from "@/lib/server/gateway";
import { portalRoute } from "../../portal-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = portalRoute({ body: playgroundCallBody }, async ({ request, db, user, body }) => {
  const gateway = await sharedGateway();
  const key = async () => body.key ?? (await playgroundKey(db, user.accountId)).key;
  return openPlaygroundStream(gateway.handle, new URL(request.url).origin, body, key, user.userId, request.signal);
});
