/** What every webhook route shares: the path parameter, the plan check, and the one mapping of the webhook domain's refusals to the API's. */
import type { Actor } from "../../domain/audit";
import { DomainError } from "../../domain/errors";
import { foundWebhook, requireWebhookPlan } from "../../domain/webhook-registration";
import { webhookIdParams } from "../../contract/webhooks";
import { invalid } from "../errors";
import type { HandlerContext } from "../route";

export const webhookParams = webhookIdParams;

/** The key's plan must include webhooks (a DomainError the pipeline answers as 403 subscription_required). */
export function requireWebhooks(ctx: HandlerContext) {
  requireWebhookPlan(ctx.caller.plan);
}

/** Who acts on a webhook over the API: the calling key, with the request id (for the audit log). */
export const keyActor = (ctx: HandlerContext): Actor => ({
  type: "key",
  id: ctx.caller.keyId,
  requestId: ctx.requestId,
});

/**
 * Runs a webhook domain call: null is a 404, a refused body field is a 400 naming it the API's way
 * ("body field 'url': …"); other domain errors reach the pipeline's one DomainError mapping.
 */
export async function webhookCall<T>(fn: () => Promise<T | null>): Promise<T> {
  try {
    return foundWebhook(await fn());
  } catch (err) {
    if (err instanceof DomainError && err.code === "invalid" && err.detail.field)
      throw invalid(`body field '${err.detail.field}': ${err.message}`);
    throw err;
  }
}
