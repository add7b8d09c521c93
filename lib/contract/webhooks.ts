/**
 * The webhook request and response schemas, the one copy: the API's /api/v1/alerts routes, the portal's webhook
 * routes and the portal's forms (z.input) all use these. Browser-safe: zod and constants only.
 */
import { z } from "zod";
import { SYMBOL_PATTERN } from "../analytics/types";

export const WEBHOOK_EVENTS = [
  "iv_rank.crossed_above",
  "iv_rank.crossed_below",
  "iv.day_change_exceeded",
  "no_trade.decision_changed",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const MAX_WEBHOOKS_PER_ACCOUNT = 20;
export const MAX_DELIVERIES_LISTED = 100;
export const MAX_REPLAY_RANGE_MS = 31 * 24 * 3_600_000;

/** Ticker symbols as every API route takes them: case-insensitive in, upper-case out. */
const symbol = z
  .string()
  .max(16)
  .transform((s) => s.toUpperCase())
  .refine((s) => SYMBOL_PATTERN.test(s), {
    message: "must be a ticker symbol: 1–6 letters, optionally . or - and 1–2 letters (e.g. BRK.B)",
  })
  .describe("Ticker symbol, case-insensitive (answered upper-case). Pattern ^[A-Z]{1,6}([.-][A-Z]{1,2})?$");

export const webhookIdParams = z
  .object({ webhookId: z.string().regex(/^wh_[0-9a-f]{24}$/, { message: "is not a webhook id" }) })
  .strict();

/** A registration: where to deliver, which events for which symbols, and each event's threshold. */
export const webhookBody = z
  .object({
    url: z
      .string()
      .max(2048)
      .url()
      .describe(
        "HTTPS endpoint that receives signed deliveries. Private, loopback, link-local, CGNAT and cloud-metadata addresses are refused (see Webhooks).",
      ),
    events: z.array(z.enum(WEBHOOK_EVENTS)).min(1).max(WEBHOOK_EVENTS.length).describe("Event types to deliver."),
    symbols: z.array(symbol).min(1).max(50).describe("Symbols to watch (1–50)."),
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
export type WebhookBody = z.output<typeof webhookBody>;

export const webhookStatusBody = z
  .object({
    status: z
      .enum(["active", "paused"])
      .describe("paused stops deliveries (queued ones wait); active resumes, or re-enables a disabled webhook."),
  })
  .strict();

export const replayBody = z
  .union([
    z
      .object({
        eventId: z
          .string()
          .regex(/^msg_[0-9a-f]{24}$/, { message: "is not an event id" })
          .describe("Replays this one event."),
      })
      .strict(),
    z
      .object({
        from: z.iso.datetime({ offset: true }).describe("Replays every event created at or after this time…"),
        to: z.iso.datetime({ offset: true }).describe("…and before this time (at most 31 days later)."),
      })
      .strict(),
  ])
  .describe("Either an eventId, or a from/to time range.");
export type ReplayBody = z.output<typeof replayBody>;

export const deliveriesQuery = z
  .object({
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_DELIVERIES_LISTED)
      .default(20)
      .describe(`Deliveries to return, newest first (1–${MAX_DELIVERIES_LISTED}, default 20).`),
  })
  .strict();

const attempt = z.object({
  attemptedAt: z.string(),
  statusCode: z
    .number()
    .nullable()
    .describe("HTTP status of the answer; null when none arrived (timeout, refused address, connection error)."),
  latencyMs: z.number().describe("Milliseconds from sending to the answer (or the failure)."),
  responseExcerpt: z.string().nullable().describe("First 512 characters of the answer body (at most 4 kB are read)."),
  error: z.enum(["timeout", "refused_address", "connection_error", "redirect", "http_status"]).nullable(),
});

/** One registration as every answer shows it. */
export const webhook = z.object({
  webhookId: z.string(),
  status: z.enum(["active", "paused", "disabled", "deleted"]),
  url: z.string(),
  events: z
    .array(z.string())
    .describe(
      "Event types delivered: iv_rank.crossed_above, iv_rank.crossed_below, iv.day_change_exceeded, no_trade.decision_changed (webhook.test is always delivered on request).",
    ),
  symbols: z.array(z.string()),
  params: z.object({
    ivRankAbove: z.number().optional().describe("Threshold of iv_rank.crossed_above, 0–100."),
    ivRankBelow: z.number().optional().describe("Threshold of iv_rank.crossed_below, 0–100."),
    ivChangeAbove: z
      .number()
      .optional()
      .describe("Threshold of iv.day_change_exceeded, in vol points (5 = 5 points of 30-day ATM IV)."),
    description: z.string().optional(),
  }),
  environment: z
    .enum(["test", "live"])
    .describe("Environment of the registering key: test keys' alerts follow the demo market."),
  disabledReason: z
    .string()
    .nullable()
    .describe(
      "Why the webhook is disabled: the endpoint answered 410 Gone, 5 days of failed deliveries, the API key that registered it was revoked, expired or deactivated, or the account was deactivated; null unless status is disabled.",
    ),
  createdAt: z.string(),
});

/** A new registration: active, with its signing secret (shown only in this answer). */
export const webhookCreated = z.object({
  webhookId: z.string(),
  status: z.literal("active"),
  url: z.string(),
  events: z.array(z.string()),
  symbols: z.array(z.string()),
  params: webhook.shape.params,
  environment: z.enum(["test", "live"]),
  disabledReason: z.null(),
  createdAt: z.string(),
  signingSecret: z.string().describe("whsec_… secret for verifying deliveries; shown only here."),
});

export const webhookList = z.object({ webhooks: z.array(webhook) });

/** Answers: one registration, a new one (with its secret), the list, and the management routes' answers. */
export const webhookResponses = {
  webhook,
  created: webhookCreated,
  list: webhookList,
  testEvent: z.object({ eventId: z.string().describe("The webhook-id of the queued webhook.test delivery.") }),
  rotated: z.object({
    webhookId: z.string(),
    signingSecret: z.string().describe("The new whsec_… secret, shown only here."),
    previousSecretExpiresAt: z
      .string()
      .describe("Until then deliveries carry two signatures: the new secret's and the previous one's."),
  }),
  replayed: z.object({ queued: z.number().describe("Deliveries queued again (each keeps its event's webhook-id).") }),
  deliveries: z.object({
    deliveries: z.array(
      z.object({
        deliveryId: z.string(),
        eventId: z.string().describe("The webhook-id header of every attempt."),
        eventType: z.string(),
        symbol: z.string().nullable(),
        status: z.enum(["pending", "succeeded", "failed", "cancelled"]),
        attemptCount: z.number().describe("Attempts in the current schedule (at most 8; a replay starts again at 0)."),
        nextAttemptAt: z.string().nullable(),
        deliveredAt: z.string().nullable(),
        createdAt: z.string(),
        attempts: z.array(attempt),
      }),
    ),
  }),
};
