/** Replays one event, or every event of a time range, to this webhook (owner). */
import { foundWebhook, replayWebhook, requireAccountWebhookPlan } from "@/lib/domain/webhook-registration";
import { getWebhook } from "@/lib/domain/webhooks";
import { idParams, webhookReplayBody } from "@/lib/portal/schemas";
import { portalRoute } from "../../../portal-route";

export const runtime = "nodejs";

export const POST = portalRoute(
  {
    params: idParams,
    body: webhookReplayBody,
    owner: true,
    guard: async ({ db, user, params }) => {
      foundWebhook(await getWebhook(db, user.accountId, params.id));
      await requireAccountWebhookPlan(db, user.accountId);
    },
  },
  async ({ database, user, params, body }) => replayWebhook(database, user.accountId, params.id, body),
);
