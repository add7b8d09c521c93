/** Replays one event, or every event of a time range, to this webhook; metered like replayAlert. */
import { replayWebhook, requireAccountWebhookPlan, requireWebhookAccess } from "@/lib/domain/webhook-registration";
import { idParams, webhookReplayBody } from "@/lib/portal/schemas";
import { meteredWebhookCall } from "@/lib/server/webhook-metering";
import { portalRoute } from "../../../portal-route";

export const runtime = "nodejs";

export const POST = portalRoute(
  {
    params: idParams,
    body: webhookReplayBody,
    guard: async ({ db, user, params, actor }) => {
      await requireWebhookAccess(db, user.accountId, params.id, actor);
      await requireAccountWebhookPlan(db, user.accountId);
    },
  },
  async ({ database, user, params, body, actor, requestId }) =>
    meteredWebhookCall(database, { accountId: user.accountId, webhookId: params.id, twin: "replay", requestId }, (d) =>
      replayWebhook(d, user.accountId, params.id, body, actor),
    ),
);
