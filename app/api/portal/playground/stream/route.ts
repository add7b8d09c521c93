/**
 * POST: opens the live stream (openStream) for the playground through the in-process gateway, as one of the account's
 * own keys or with a pasted one (the same choice as a call); answers text/event-stream, or the gateway's refusal as a
 * playground answer. One stream per user, closed after a few minutes or when the browser stops reading
 * (lib/server/playground-stream.ts).
 */
import { playgroundCredential } from "@/lib/domain/playground";
import { openPlaygroundStream } from "@/lib/server/playground-stream";
import { playgroundCallBody } from "@/lib/portal/schemas";
import { sharedGateway } from "@/lib/server/gateway";
import { portalRoute } from "../../portal-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = portalRoute({ body: playgroundCallBody }, async ({ request, db, user, body }) => {
  const gateway = await sharedGateway();
  const credential = () => playgroundCredential(db, user, body);
  return openPlaygroundStream(gateway, new URL(request.url).origin, body, credential, user.userId, request.signal);
});
