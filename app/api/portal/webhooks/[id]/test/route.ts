/** Sends a webhook.test event to this webhook (owner); answers the event id, which is the webhook-id header. */
import { sendTestEvent } from "@/lib/domain/webhook-deliveries";
import { found, requireWebhookPlan } from "@/lib/portal/webhooks";
import { portalRoute } from "@/lib/portal/route";
import { portalDatabase } from "@/lib/server/portal-db";

export const runtime = "nodejs";

export const POST = portalRoute<{ id: string }>(
  async ({ user, params }) => {
    const database = await portalDatabase();
    await requireWebhookPlan(database.db, user.accountId);
    return { eventId: found(await sendTestEvent(database, user.accountId, params.id)) };
  },
  { owner: true },
);
