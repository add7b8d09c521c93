/** Replays one event, or every event of a time range, to this webhook (owner); metered like replayAlert. */
import { foundWebhook, replayWebhook, requireAccountWebhookPlan } from "@/lib/domain/webhook-registration";
import { getWebhook } from "@/lib/domain/webhooks";
import { idParams, webhookReplayBody } from "@/lib/portal/schemas";
import { meteredWebhookCall } from "@/lib/server/webhook-metering";
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
  async ({ database, user, params, body, actor, requestId }) =>
    meteredWebhookCall(database, { accountId: user.accountId, webhookId: params.id, twin: "replay", requestId }, (d) =>
      replayWebhook(d, user.accountId, params.id, body, actor),
    ),
);
