/** One webhook of the account: read, pause/resume (PATCH, owner), delete (owner). Another account's id answers 404. */
import { foundWebhook, setAccountWebhookStatus } from "@/lib/domain/webhook-registration";
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
    owner: true,
    guard: async ({ db, user, params }) => void foundWebhook(await getWebhook(db, user.accountId, params.id)),
  },
  async ({ database, user, params, body, actor }) =>
    setAccountWebhookStatus(database, user.accountId, params.id, body.status, actor),
);

export const DELETE = portalRoute({ params: idParams, owner: true }, async ({ db, user, params, actor }) =>
  foundWebhook(await deleteWebhook(db, user.accountId, params.id, actor)),
);
