/**
 * Family B webhook registration. Needs a plan with webhooks (Pro, Enterprise). Rows leave through the public schemas.
 */
import { z } from "zod";
import {
  deleteWebhook,
  getWebhook,
  listWebhooks,
  registerWebhook,
  WEBHOOK_EVENTS,
  WebhookLimitError,
} from "../../domain/webhooks";
import { checkWebhookUrl } from "../../domain/webhook-targets";
import { appEnv } from "../../env";
import { invalid, KEYED_ROUTE_ERRORS } from "../errors";
import { defineRoute } from "../route";
import { symbolSchema } from "./inputs";
import { schemas } from "../../contract/responses";
import { notFound, requireWebhooks, webhookParams } from "./alerts-common";

export const alertBody = z
  .object({
    url: z
      .string()
      .max(2048)
      .url()
      .describe(
        "HTTPS endpoint that receives signed deliveries. Private, loopback, link-local, CGNAT and cloud-metadata addresses are refused (see Webhooks).",
      ),
    events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(WEBHOOK_EVENTS.length).describe("Event types to deliver."),
    symbols: z.array(symbolSchema).min(1).max(50).describe("Symbols to watch (1–50)."),
    ivRankAbove: z
      .number()
      .min(0)
      .max(100)
      .optional()
      .describe("iv_rank.crossed_above fires when IV rank rises above this (0–100)."),
    ivRankBelow: z
      .number()
      .min(0)
      .max(100)
      .optional()
      .describe("iv_rank.crossed_below fires when IV rank falls below this (0–100)."),
    ivChangeAbove: z
      .number()
      .gt(0)
      .max(100)
      .optional()
      .describe("iv.day_change_exceeded fires when |30-day ATM IV − previous close| exceeds this, in vol points."),
    description: z.string().max(200).optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (new Set(b.events).size !== b.events.length)
      ctx.addIssue({ code: "custom", path: ["events"], message: "events must not repeat" });
    if (b.events.includes("iv_rank.crossed_above") && b.ivRankAbove === undefined)
      ctx.addIssue({ code: "custom", path: ["ivRankAbove"], message: "required with iv_rank.crossed_above" });
    if (b.events.includes("iv_rank.crossed_below") && b.ivRankBelow === undefined)
      ctx.addIssue({ code: "custom", path: ["ivRankBelow"], message: "required with iv_rank.crossed_below" });
    if (b.events.includes("iv.day_change_exceeded") && b.ivChangeAbove === undefined)
      ctx.addIssue({ code: "custom", path: ["ivChangeAbove"], message: "required with iv.day_change_exceeded" });
  });

export const createAlert = defineRoute({
  operationId: "createAlert",
  method: "POST",
  path: "/api/v1/alerts",
  family: "B",
  envelope: "B",
  errors: [...KEYED_ROUTE_ERRORS, "payload_too_large"],
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
    requireWebhooks(ctx);
    const body = ctx.body;
    const env = appEnv();
    const refused = await checkWebhookUrl(body.url, {
      allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE_TARGETS,
      production: env.NODE_ENV === "production",
    });
    if (refused) throw invalid(`body field 'url': ${refused}.`);
    try {
      const created = await registerWebhook(ctx.database.db, ctx.caller, body);
      return { data: schemas.webhookCreated.parse(created), status: 201 };
    } catch (err) {
      if (err instanceof WebhookLimitError) throw invalid(err.message);
      throw err;
    }
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
    const found = await getWebhook(ctx.database.db, ctx.caller.accountId, ctx.params.webhookId);
    if (!found) throw notFound();
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
    const deleted = await deleteWebhook(ctx.database.db, ctx.caller.accountId, ctx.params.webhookId);
    if (!deleted) throw notFound();
    return { data: schemas.webhook.parse(deleted) };
  },
});

export const alertRoutes = [createAlert, listAlerts, getAlert, deleteAlert];
