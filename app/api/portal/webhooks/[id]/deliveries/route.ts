/** Recent deliveries of one webhook with every attempt (newest first). */
import { listDeliveries } from "@/lib/domain/webhook-deliveries";
import { foundWebhook } from "@/lib/domain/webhook-registration";
import { idParams } from "@/lib/portal/schemas";
import { portalRoute } from "../../../portal-route";

export const runtime = "nodejs";

export const GET = portalRoute({ params: idParams }, async ({ database, user, params }) =>
  foundWebhook(await listDeliveries(database, user.accountId, params.id, 20)),
);
