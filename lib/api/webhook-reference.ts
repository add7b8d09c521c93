/** The webhooks part of the API reference: event payloads (OpenAPI 3.1 `webhooks`), signing, retries, statuses, safety. */
import { z } from "zod";
import { DISCLAIMER } from "../contract/disclaimer";
import type { OpenApiDocument } from "../contract/openapi-document";
import {
  ATTEMPT_TIMEOUT_MS,
  DISABLE_AFTER_FAILING_MS,
  JITTER,
  MAX_ATTEMPTS,
  MAX_RESPONSE_BYTES,
  RETRY_DELAYS_MS,
} from "../webhooks/schedule";
import { SECRET_OVERLAP_MS } from "../domain/webhook-status";
import { MAX_REPLAY_RANGE_MS } from "../domain/webhook-deliveries";

export const MAX_PAYLOAD_BYTES = 20_000;

const human = (ms: number) =>
  ms < 60_000
    ? `${ms / 1000} s`
    : ms < 3_600_000
      ? `${ms / 60_000} min`
      : ms < 2 * 86_400_000
        ? `${ms / 3_600_000} h`
        : `${ms / 86_400_000} days`;

const common = {
  symbol: z.string(),
  asOf: z.string().describe("As-of time of the market data the event was computed from."),
  environment: z.enum(["test", "live"]).describe("Key environment of the receiving webhooks (test = the demo market)."),
  dataVersion: z
    .number()
    .describe("The market data version the event was computed on; an event is computed once per version."),
  // Examples of one consistent (test) event: never `live` beside `isMockData: true`.
  isMockData: z.boolean().describe("true for the demo market (test keys).").meta({ example: true }),
  dataLabel: z
    .enum(["live", "delayed-15m", "end-of-day", "demo"])
    .describe("Freshness label of the data, as on API responses.")
    .meta({ example: "demo" }),
  disclaimer: z.literal(DISCLAIMER),
};
const envelope = (type: string, data: z.ZodType) =>
  z.object({
    type: z.literal(type),
    timestamp: z.string().describe("When the event was created (UTC ISO 8601)."),
    data,
  });

export const EVENT_PAYLOADS: Record<string, { summary: string; schema: z.ZodType }> = {
  "iv_rank.crossed_above": {
    summary:
      "IV rank rose above the webhook's ivRankAbove: previous version ≤ threshold, this version > threshold. Fires once per crossing.",
    schema: envelope(
      "iv_rank.crossed_above",
      z.object({
        ...common,
        threshold: z.number(),
        previousIvRank: z.number(),
        ivRank: z.number(),
        atmIv30: z.number().nullable(),
      }),
    ),
  },
  "iv_rank.crossed_below": {
    summary:
      "IV rank fell below the webhook's ivRankBelow: previous version ≥ threshold, this version < threshold. Fires once per crossing.",
    schema: envelope(
      "iv_rank.crossed_below",
      z.object({
        ...common,
        threshold: z.number(),
        previousIvRank: z.number(),
        ivRank: z.number(),
        atmIv30: z.number().nullable(),
      }),
    ),
  },
  "iv.day_change_exceeded": {
    summary:
      "|30-day ATM IV − the previous session's closing 30-day ATM IV| (vol points) went from ≤ ivChangeAbove to above it.",
    schema: envelope(
      "iv.day_change_exceeded",
      z.object({
        ...common,
        threshold: z.number(),
        ivDayChange: z.number().describe("Signed change in vol points (0.05 of IV = 5)."),
        atmIv30: z.number().nullable(),
      }),
    ),
  },
  "no_trade.decision_changed": {
    summary: "The no-trade decision (trade, caution, no_trade) differs from the previous data version's.",
    schema: envelope(
      "no_trade.decision_changed",
      z.object({ ...common, previousDecision: z.string(), decision: z.enum(["trade", "caution", "no_trade"]) }),
    ),
  },
  "webhook.test": {
    summary: "Sent by POST /api/v1/alerts/{webhookId}/test to that webhook only.",
    schema: envelope(
      "webhook.test",
      z.object({
        webhookId: z.string(),
        environment: z.enum(["test", "live"]),
        message: z.string(),
        isMockData: z.literal(true),
        dataLabel: z.literal("demo"),
        disclaimer: z.literal(DISCLAIMER),
      }),
    ),
  },
};

const HEADERS = {
  "webhook-id": {
    required: true,
    schema: { type: "string" },
    description: "msg_… event id; the same on every retry and replay: use it as your idempotency key.",
  },
  "webhook-timestamp": {
    required: true,
    schema: { type: "string" },
    description:
      "Unix seconds of this attempt; reject values far from your clock (the standardwebhooks libraries allow 5 minutes).",
  },
  "webhook-signature": {
    required: true,
    schema: { type: "string" },
    description: "Space-separated `v1,<base64 HMAC-SHA256>` signatures of `{webhook-id}.{webhook-timestamp}.{body}`.",
  },
};

/** iv_rank.crossed_above → ivRankCrossedAboveWebhook: a method name for generated receivers. */
const webhookOperationId = (type: string) =>
  `${type.replace(/[._]([a-z])/g, (_, c: string) => c.toUpperCase())}Webhook`;

/** OpenAPI 3.1 top-level `webhooks`: one POST per event type. */
export function webhookOperations(): OpenApiDocument["webhooks"] {
  return Object.fromEntries(
    Object.entries(EVENT_PAYLOADS).map(([type, p]) => [
      type,
      {
        post: {
          operationId: webhookOperationId(type),
          summary: type,
          description: p.summary,
          tags: ["Webhook events"],
          parameters: Object.entries(HEADERS).map(([name, h]) => ({ name, in: "header" as const, ...h })),
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: z.toJSONSchema(p.schema, { io: "output", unrepresentable: "any" }) },
            },
          },
          responses: {
            "2XX": {
              description: `Accepted. Anything else, or no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s, is a failed attempt.`,
            },
            "410": { description: "Gone: the service disables the webhook." },
          },
          security: [], // the receiver checks the delivery's signature headers, not an API key
        },
      },
    ]),
  );
}

export const WEBHOOK_NOTES = `
## Webhooks
Register with \`POST /api/v1/alerts\` (Pro (API Pro) and Enterprise (API Business); test keys of such accounts on demo events). Events are computed once per market data version
(demo ticks for test keys' webhooks, imports for live ones), not per subscriber: every webhook whose events, symbols and
threshold match receives the same event id. Event types and payloads are in this document's \`webhooks\` section; every
body is \`{type, timestamp, data}\`, under ${MAX_PAYLOAD_BYTES / 1000} kB, and \`data\` carries \`disclaimer\`, \`isMockData\` and \`dataLabel\`.

**Signing** follows Standard Webhooks: headers \`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\` =
\`v1,\` + base64(HMAC-SHA256(key, "{id}.{timestamp}.{body}")), key = base64-decoded part of the \`whsec_\` secret. Verify with
any Standard Webhooks library. \`POST /api/v1/alerts/{webhookId}/rotate-secret\` returns a new secret; for
${human(SECRET_OVERLAP_MS)} every delivery carries two signatures (new and previous secret).

**Delivery** is at least once, from a durable outbox: an event is never lost when a server stops. Only a 2xx answer within
${ATTEMPT_TIMEOUT_MS / 1000} s succeeds; redirects are not followed (a 3xx is a failure); at most ${MAX_RESPONSE_BYTES / 1024} kB of an
answer is read. After a failure the next attempt follows after ${RETRY_DELAYS_MS.map(human).join(", ")} (each ±${JITTER * 100} %),
${MAX_ATTEMPTS} attempts in all; then the delivery is \`failed\`. Duplicates are possible after a failure or a server crash: deduplicate on
\`webhook-id\`. \`GET /api/v1/alerts/{webhookId}/deliveries\` lists deliveries (\`pending\`, \`succeeded\`, \`failed\`, \`cancelled\`) with every
attempt; \`POST /api/v1/alerts/{webhookId}/replay\` queues one event, or every event of a time range of at most ${human(MAX_REPLAY_RANGE_MS)}
(including events missed while paused or disabled), again with the same webhook-id and a fresh schedule.

**Status values**: \`active\` (delivering), \`paused\` (by the owner: nothing is attempted, queued deliveries wait, new events are
not queued), \`disabled\` (by the service: the endpoint answered 410, or every attempt failed for ${human(DISABLE_AFTER_FAILING_MS)}; \`disabledReason\`
says which), \`deleted\` (by the owner, final; queued deliveries are cancelled). Transitions: owner \`active → paused\`,
\`paused → active\`, \`disabled → active\` (re-enable, via \`PATCH\` with \`status: active\`), any → \`deleted\` (\`DELETE\`); service
\`active → disabled\`. A disabled webhook cannot be paused.

**Key and account**: a webhook delivers only while the API key that registered it is active and unexpired and its account
is active; both the fan-out and every delivery attempt check this. Revoking the key, or its expiry after a roll, disables
the webhook for good (queued deliveries are cancelled; it cannot be re-enabled, test-sent or replayed to). Deactivating
the key or the account disables it until the key or account is switched back on, which restores exactly the webhooks it
disabled. \`disabledReason\` says which.

**Safety**: in production only \`https\` URLs. Private (10/8, 172.16/12, 192.168/16, fc00::/7), loopback, link-local
(including the cloud metadata addresses 169.254.169.254 and fd00:ec2::254), CGNAT (100.64/10), unspecified, multicast, reserved
and IPv6 tunnelling prefixes are refused, IPv4-mapped IPv6 addresses judged as their IPv4 address: when registering, the
literal address or every address the name resolves to; and again at every delivery, on the address actually connected to.
Secrets appear only in the create and rotate answers, never in listings or logs; they are stored encrypted.
`.trim();
