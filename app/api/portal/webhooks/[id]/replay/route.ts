/** Replays one event, or every event of a time range, to this webhook (owner). */
import { DomainError } from "@/lib/domain/errors";
import { replayEvent, replayRange } from "@/lib/domain/webhook-deliveries";
import { getWebhook } from "@/lib/domain/webhooks";
import { webhookReplayBody } from "@/lib/portal/webhook-schemas";
import { found, requireWebhookPlan } from "@/lib/portal/webhooks";
import { portalRoute, readJson } from "@/lib/portal/route";
import { portalDatabase } from "@/lib/server/portal-db";

export const runtime = "nodejs";

export const POST = portalRoute<{ id: string }>(
  async ({ request, user, params }) => {
    const database = await portalDatabase();
    found(await getWebhook(database.db, user.accountId, params.id));
    await requireWebhookPlan(database.db, user.accountId);
    const body = webhookReplayBody.parse(await readJson(request));
    if ("eventId" in body) {
      const ok = found(await replayEvent(database, user.accountId, params.id, body.eventId));
      if (!ok) throw new DomainError("invalid", "This webhook was never sent that event.", { field: "eventId" });
      return { queued: 1 };
    }
    return {
      queued: found(await replayRange(database, user.accountId, params.id, new Date(body.from), new Date(body.to))),
    };
  },
  { owner: true },
);
