/** One webhook of the account: read, pause/resume (PATCH), delete. Another account's id answers 404. */
import { foundWebhook, requireWebhookAccess, setAccountWebhookStatus } from "@/lib/domain/webhook-registration";
import { deleteWebhook, getWebhook } from "@/lib/domain/webhooks";
import { idParams, webhookStatusChangeBody } from "@/lib/portal/schemas";
import { portalRoute } from "../../portal-route";

export const runtime = "nodejs";

export const GET = portalRoute({ params: idParams }, async ({ db, user, params }) =>
  foundWebhook(await getWebhook(db, user.accountId, params.id)),
);

export const PATCH = portalRoute(
  {
    params: idParams,
    body: webhookStatusChangeBody,
    guard: async ({ db, user, params, actor }) =>
      void (await requireWebhookAccess(db, user.accountId, params.id, actor)),
  },
  async ({ database, user, params, body, actor }) =>
    setAccountWebhookStatus(database, user.accountId, params.id, body.status, actor),
);

export const DELETE = portalRoute(
  {
    params: idParams,
    guard: async ({ db, user, params, actor }) =>
      void (await requireWebhookAccess(db, user.accountId, params.id, actor)),
  },
  async ({ db, user, params, actor }) => foundWebhook(await deleteWebhook(db, user.accountId, params.id, actor)),
);
