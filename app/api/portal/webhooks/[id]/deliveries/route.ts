/** Recent deliveries of one webhook with every attempt (newest first). */
import { listDeliveries } from "@/lib/domain/webhook-deliveries";
import { found } from "@/lib/portal/webhooks";
import { portalRoute } from "@/lib/portal/route";
import { portalDatabase } from "@/lib/server/portal-db";

export const runtime = "nodejs";

export const GET = portalRoute<{ id: string }>(async ({ user, params }) =>
  found(await listDeliveries(await portalDatabase(), user.accountId, params.id, 20)),
);
