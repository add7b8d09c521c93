/** A new signing secret (shown once). For 24 hours deliveries carry the new and the previous secret's signatures. */
import { foundWebhook, requireWebhookAccess } from "@/lib/domain/webhook-registration";
import { rotateWebhookSecret } from "@/lib/domain/webhook-status";
import { idParams } from "@/lib/portal/schemas";
import { portalRoute } from "../../../portal-route";

export const runtime = "nodejs";

export const POST = portalRoute(
  {
    params: idParams,
    guard: async ({ db, user, params, actor }) =>
      void (await requireWebhookAccess(db, user.accountId, params.id, actor)),
  },
  async ({ database, user, params, actor }) =>
    foundWebhook(await rotateWebhookSecret(database, user.accountId, params.id, actor)),
);
