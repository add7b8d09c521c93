/** Bodies of the portal's webhook routes: the public API's registration rules plus the key the webhook belongs to. */
import { z } from "zod";
import { alertBody } from "../api/routes/alerts";
import { patchAlertBody, replayBody } from "../api/routes/alerts-schemas";

export const registerWebhookBody = z
  .object({ keyId: z.string().min(1, { message: "choose one of your active API keys" }).max(100), webhook: alertBody })
  .strict();
export const webhookStatusBody = patchAlertBody;
export const webhookReplayBody = replayBody;
