/** The account's webhooks: list (GET) and register (POST; the signing secret is in this answer only). */
import { registerAccountWebhook, requireAccountWebhookPlan } from "@/lib/domain/webhook-registration";
import { listWebhooks } from "@/lib/domain/webhooks";
import { registerWebhookBody } from "@/lib/portal/schemas";
import { portalRoute } from "../portal-route";

export const runtime = "nodejs";

export const GET = portalRoute({}, async ({ db, user }) => listWebhooks(db, user.accountId));

export const POST = portalRoute(
  {
    body: registerWebhookBody,
    status: 201,
    // A plan without webhooks is refused before the body is looked at.
    guard: async ({ db, user }) => requireAccountWebhookPlan(db, user.accountId),
  },
  async ({ db, user, body, actor }) => registerAccountWebhook(db, user.accountId, body, actor),
);
