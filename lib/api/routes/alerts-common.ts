/** What every webhook route shares: the path parameter, the plan check, the 404. */
import { z } from "zod";
import { ApiError } from "../errors";
import type { HandlerContext } from "../route";

export const webhookParams = z
  .object({ webhookId: z.string().regex(/^wh_[0-9a-f]{24}$/, { message: "is not a webhook id" }) })
  .strict();

export function requireWebhooks(ctx: HandlerContext) {
  if (!ctx.caller.plan.webhooks) {
    throw new ApiError(
      "subscription_required",
      `Webhooks need the API Pro or API Business plan; this key's plan is ${ctx.caller.plan.nameB}.`,
    );
  }
}

export const notFound = () => new ApiError("not_found", "No such webhook for this account.");
