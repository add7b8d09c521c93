/** Sends a webhook.test event to this webhook (owner); answers the event id, which is the webhook-id header. */
import { sendTestEvent } from "@/lib/domain/webhook-deliveries";
import { foundWebhook, requireAccountWebhookPlan } from "@/lib/domain/webhook-registration";
import { idParams } from "@/lib/portal/schemas";
import { portalRoute } from "../../../portal-route";

export const runtime = "nodejs";

export const POST = portalRoute({ params: idParams, owner: true }, async ({ database, user, params }) => {
  await requireAccountWebhookPlan(database.db, user.accountId);
  return { eventId: foundWebhook(await sendTestEvent(database, user.accountId, params.id)) };
});
