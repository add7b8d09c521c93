/**
 * Sends a webhook.test event to this webhook, metered like testAlert; answers the event id, which is the
 * webhook-id header.
 */
import { sendTestEvent } from "@/lib/domain/webhook-deliveries";
import { foundWebhook, requireAccountWebhookPlan, requireWebhookAccess } from "@/lib/domain/webhook-registration";
import { idParams } from "@/lib/portal/schemas";
import { meteredWebhookCall } from "@/lib/server/webhook-metering";
import { portalRoute } from "../../../portal-route";

export const runtime = "nodejs";

export const POST = portalRoute(
  {
    params: idParams,
    guard: async ({ db, user, params, actor }) =>
      void (await requireWebhookAccess(db, user.accountId, params.id, actor)),
  },
  async ({ database, user, params, actor, requestId }) => {
    await requireAccountWebhookPlan(database.db, user.accountId);
    const call = { accountId: user.accountId, webhookId: params.id, twin: "test" as const, requestId };
    const eventId = await meteredWebhookCall(database, call, async (d) =>
      foundWebhook(await sendTestEvent(d, user.accountId, params.id, actor)),
    );
    return { eventId };
  },
);
