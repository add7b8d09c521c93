/** Request and response schemas of the webhook management routes (they validate and document them). */
import { z } from "zod";
import { MAX_DELIVERIES_LISTED } from "../../domain/webhook-deliveries";

export const patchAlertBody = z
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

export const alertSchemas = {
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
