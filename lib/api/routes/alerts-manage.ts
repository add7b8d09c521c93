/**
 * Webhook management (family B): pause/resume, test event, deliveries, replay, secret rotation. Thin: each calls one
 * domain function.
 */
import { listDeliveries, sendTestEvent } from "../../domain/webhook-deliveries";
import { replayWebhook } from "../../domain/webhook-registration";
import { rotateWebhookSecret, setWebhookStatus } from "../../domain/webhook-status";
import { getWebhook } from "../../domain/webhooks";
import { IDEMPOTENCY_ERRORS, invalid, KEYED_ROUTE_ERRORS } from "../errors";
import { defineRoute, type RouteDef } from "../route";
import { keyActor, requireWebhooks, webhookCall, webhookParams } from "./alerts-common";
import { alertSchemas, deliveriesQuery, patchAlertBody, replayBody } from "./alerts-schemas";
import { schemas } from "../../contract/responses";

const common = {
  family: "B" as const,
  envelope: "B" as const,
  tags: ["Alerts (webhooks)"],
  authenticated: true as const,
  touchesAccountState: true,
  params: webhookParams,
};

export const patchAlert = defineRoute({
  ...common,
  operationId: "updateAlert",
  method: "PATCH",
  path: "/api/v1/alerts/{webhookId}",
  errors: [...KEYED_ROUTE_ERRORS, ...IDEMPOTENCY_ERRORS, "not_found", "payload_too_large"],
  summary: "Pause or resume a webhook",
  description:
    "status paused holds deliveries; active resumes them, or re-enables a webhook the service disabled. A disabled " +
    "webhook cannot be paused.",
  body: patchAlertBody,
  response: schemas.webhook,
  handler: async (ctx) => {
    requireWebhooks(ctx);
    const { status } = ctx.body;
    await webhookCall(() =>
      setWebhookStatus(ctx.database, ctx.caller.accountId, ctx.params.webhookId, status, keyActor(ctx), ctx.now),
    );
    return {
      data: schemas.webhook.parse(
        await webhookCall(() => getWebhook(ctx.database.db, ctx.caller.accountId, ctx.params.webhookId)),
      ),
    };
  },
});

export const testAlert = defineRoute({
  ...common,
  operationId: "testAlert",
  method: "POST",
  path: "/api/v1/alerts/{webhookId}/test",
  errors: [...KEYED_ROUTE_ERRORS, ...IDEMPOTENCY_ERRORS, "not_found"],
  summary: "Send a webhook.test event",
  description: "Queues a signed webhook.test delivery to this webhook and answers 202 with its event id.",
  response: alertSchemas.testEvent,
  successStatus: 202,
  handler: async (ctx) => {
    requireWebhooks(ctx);
    const eventId = await webhookCall(() =>
      sendTestEvent(ctx.database, ctx.caller.accountId, ctx.params.webhookId, keyActor(ctx), ctx.now),
    );
    return { data: { eventId }, status: 202 };
  },
});

export const listAlertDeliveries = defineRoute({
  ...common,
  operationId: "listAlertDeliveries",
  method: "GET",
  path: "/api/v1/alerts/{webhookId}/deliveries",
  errors: [...KEYED_ROUTE_ERRORS, "not_found"],
  summary: "Recent deliveries with their attempts",
  description: "Newest first; each attempt with its time, status code, latency and the first bytes of the answer.",
  query: deliveriesQuery,
  response: alertSchemas.deliveries,
  handler: async (ctx) => {
    requireWebhooks(ctx);
    const { limit } = ctx.query;
    const deliveries = await webhookCall(() =>
      listDeliveries(ctx.database, ctx.caller.accountId, ctx.params.webhookId, limit),
    );
    return { data: alertSchemas.deliveries.parse({ deliveries }) };
  },
});

export const replayAlert = defineRoute({
  ...common,
  operationId: "replayAlert",
  method: "POST",
  path: "/api/v1/alerts/{webhookId}/replay",
  errors: [...KEYED_ROUTE_ERRORS, ...IDEMPOTENCY_ERRORS, "not_found", "payload_too_large"],
  summary: "Replay one event or a time range",
  description:
    "Queues the event(s) again with a fresh retry schedule; each keeps its webhook-id, so receivers can deduplicate.",
  body: replayBody,
  response: alertSchemas.replayed,
  successStatus: 202,
  handler: async (ctx) => {
    requireWebhooks(ctx);
    const replayed = await webhookCall(() =>
      replayWebhook(ctx.database, ctx.caller.accountId, ctx.params.webhookId, ctx.body, keyActor(ctx), ctx.now),
    );
    return { data: replayed, status: 202 };
  },
});

export const rotateAlertSecret = defineRoute({
  ...common,
  operationId: "rotateAlertSecret",
  method: "POST",
  path: "/api/v1/alerts/{webhookId}/rotate-secret",
  errors: [...KEYED_ROUTE_ERRORS, ...IDEMPOTENCY_ERRORS, "not_found"],
  summary: "Rotate the signing secret",
  description:
    "Returns a new secret (shown once). For 24 hours deliveries carry two signatures, new and previous secret.",
  response: alertSchemas.rotated,
  handler: async (ctx) => {
    requireWebhooks(ctx);
    return {
      data: await webhookCall(() =>
        rotateWebhookSecret(ctx.database, ctx.caller.accountId, ctx.params.webhookId, keyActor(ctx), ctx.now),
      ),
    };
  },
});

export const alertManagementRoutes: RouteDef[] = [
  patchAlert,
  testAlert,
  listAlertDeliveries,
  replayAlert,
  rotateAlertSecret,
];
