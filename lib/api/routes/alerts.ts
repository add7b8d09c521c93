/**
 * Family B webhook registration: register, list, read, delete. Needs a plan with webhooks (Pro, Enterprise). Rows
 * leave through the public schemas.
 */
import { deleteWebhook, getWebhook, listWebhooks } from "../../domain/webhooks";
import { registerKeyWebhook } from "../../domain/webhook-registration";
import { webhookBody as alertBody } from "../../contract/webhooks";
import { IDEMPOTENCY_ERRORS, invalid, KEYED_ROUTE_ERRORS } from "../errors";
import { defineRoute } from "../route";
import { schemas } from "../../contract/responses";
import { keyActor, requireWebhooks, webhookCall, webhookParams } from "./alerts-common";

export const createAlert = defineRoute({
  operationId: "createAlert",
  method: "POST",
  path: "/api/v1/alerts",
  family: "B",
  envelope: "B",
  errors: [...KEYED_ROUTE_ERRORS, ...IDEMPOTENCY_ERRORS, "payload_too_large"],
  tags: ["Alerts (webhooks)"],
  authenticated: true,
  touchesAccountState: true,
  summary: "Register a webhook for IV or no-trade alerts",
  description:
    "Registers a webhook. The signing secret is shown once; deliveries are signed per the Standard Webhooks scheme.",
  body: alertBody,
  response: schemas.webhookCreated,
  successStatus: 201,
  handler: async (ctx) => {
    const created = await webhookCall(() => registerKeyWebhook(ctx.database.db, ctx.caller, ctx.body, keyActor(ctx)));
    return { data: schemas.webhookCreated.parse(created), status: 201 };
  },
});

export const listAlerts = defineRoute({
  operationId: "listAlerts",
  method: "GET",
  path: "/api/v1/alerts",
  family: "B",
  envelope: "B",
  errors: KEYED_ROUTE_ERRORS,
  tags: ["Alerts (webhooks)"],
  authenticated: true,
  touchesAccountState: true,
  summary: "List this account's webhooks",
  description:
    "Every registration of the calling key's account but deleted ones, with its status and, when disabled, why.",
  response: schemas.webhookList,
  handler: async (ctx) => {
    requireWebhooks(ctx);
    return { data: schemas.webhookList.parse({ webhooks: await listWebhooks(ctx.database.db, ctx.caller.accountId) }) };
  },
});

export const getAlert = defineRoute({
  operationId: "getAlert",
  method: "GET",
  path: "/api/v1/alerts/{webhookId}",
  family: "B",
  envelope: "B",
  errors: [...KEYED_ROUTE_ERRORS, "not_found"],
  tags: ["Alerts (webhooks)"],
  authenticated: true,
  touchesAccountState: true,
  summary: "One webhook registration",
  description: "A registration of the calling key's account; another account's id answers 404.",
  params: webhookParams,
  response: schemas.webhook,
  handler: async (ctx) => {
    requireWebhooks(ctx);
    const found = await webhookCall(() => getWebhook(ctx.database.db, ctx.caller.accountId, ctx.params.webhookId));
    return { data: schemas.webhook.parse(found) };
  },
});

export const deleteAlert = defineRoute({
  operationId: "deleteAlert",
  method: "DELETE",
  path: "/api/v1/alerts/{webhookId}",
  family: "B",
  envelope: "B",
  errors: [...KEYED_ROUTE_ERRORS, "not_found"],
  tags: ["Alerts (webhooks)"],
  authenticated: true,
  touchesAccountState: true,
  summary: "Delete a webhook",
  description: "Stops deliveries; the registration answers with status deleted.",
  params: webhookParams,
  response: schemas.webhook,
  handler: async (ctx) => {
    requireWebhooks(ctx);
    const deleted = await webhookCall(() =>
      deleteWebhook(ctx.database.db, ctx.caller.accountId, ctx.params.webhookId, keyActor(ctx)),
    );
    return { data: schemas.webhook.parse(deleted) };
  },
});

export const alertRoutes = [createAlert, listAlerts, getAlert, deleteAlert];
