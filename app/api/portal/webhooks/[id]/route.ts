/** One webhook of the account: read, pause/resume (PATCH, owner), delete (owner). Another account's id answers 404. */
import { setWebhookStatus } from "@/lib/domain/webhook-status";
import { deleteWebhook, getWebhook } from "@/lib/domain/webhooks";
import { webhookStatusBody } from "@/lib/portal/webhook-schemas";
import { found, requireWebhookPlan } from "@/lib/portal/webhooks";
import { portalRoute, readJson } from "@/lib/portal/route";
import { portalDatabase, portalDb } from "@/lib/server/portal-db";

export const runtime = "nodejs";
type P = { id: string };

export const GET = portalRoute<P>(async ({ user, params }) =>
  found(await getWebhook(await portalDb(), user.accountId, params.id)),
);

export const PATCH = portalRoute<P>(
  async ({ request, user, params }) => {
    const database = await portalDatabase();
    found(await getWebhook(database.db, user.accountId, params.id));
    const { status } = webhookStatusBody.parse(await readJson(request));
    if (status === "active") await requireWebhookPlan(database.db, user.accountId);
    found(await setWebhookStatus(database, user.accountId, params.id, status));
    return found(await getWebhook(database.db, user.accountId, params.id));
  },
  { owner: true },
);

export const DELETE = portalRoute<P>(
  async ({ user, params }) => found(await deleteWebhook(await portalDb(), user.accountId, params.id)),
  { owner: true },
);
