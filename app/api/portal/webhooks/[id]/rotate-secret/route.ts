/** A new signing secret (owner; shown once). For 24 hours deliveries carry the new and the previous secret's signatures. */
import { rotateWebhookSecret } from "@/lib/domain/webhook-status";
import { found } from "@/lib/portal/webhooks";
import { portalRoute } from "@/lib/portal/route";
import { portalDatabase } from "@/lib/server/portal-db";

export const runtime = "nodejs";

export const POST = portalRoute<{ id: string }>(
  async ({ user, params }) => found(await rotateWebhookSecret(await portalDatabase(), user.accountId, params.id)),
  { owner: true },
);
