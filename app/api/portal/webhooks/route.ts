/** The account's webhooks: list (GET) and register (POST, owner; the signing secret is in this answer only). */
import { DomainError } from "@/lib/domain/errors";
import { checkWebhookUrl } from "@/lib/domain/webhook-targets";
import { listWebhooks, registerWebhook, WebhookLimitError } from "@/lib/domain/webhooks";
import { appEnv } from "@/lib/env";
import { registerWebhookBody } from "@/lib/portal/webhook-schemas";
import { requireWebhookPlan, webhookOwner } from "@/lib/portal/webhooks";
import { portalRoute, readJson } from "@/lib/portal/route";
import { portalDb } from "@/lib/server/portal-db";

export const runtime = "nodejs";

export const GET = portalRoute(async ({ user }) => listWebhooks(await portalDb(), user.accountId));

export const POST = portalRoute(
  async ({ request, user, requestId }) => {
    const db = await portalDb();
    await requireWebhookPlan(db, user.accountId);
    const body = registerWebhookBody.parse(await readJson(request));
    const owner = await webhookOwner(db, user.accountId, body.keyId);
    const env = appEnv();
    const refused = await checkWebhookUrl(body.webhook.url, {
      allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE_TARGETS,
      production: env.NODE_ENV === "production",
    });
    if (refused) throw new DomainError("invalid", `URL: ${refused}.`, { field: "webhook.url" });
    try {
      const created = await registerWebhook(db, owner, body.webhook);
      return Response.json(
        { data: created },
        { status: 201, headers: { "x-request-id": requestId, "cache-control": "no-store" } },
      );
    } catch (err) {
      if (err instanceof WebhookLimitError) throw new DomainError("invalid", err.message);
      throw err;
    }
  },
  { owner: true },
);
