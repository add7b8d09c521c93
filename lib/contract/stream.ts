/**
 * The live stream's filters and event shape (GET /api/v1/stream, docs/api-contract.md "Live stream"): the webhook
 * events with per-stream thresholds, plus options-flow events. Browser-safe: zod and constants only.
 */
import { z } from "zod";
import { DOCUMENTED_NUMBER, type DocumentedNumber } from "./documented-number";
import { SYMBOL_PATTERN } from "../analytics/types";
import { WEBHOOK_EVENTS } from "./webhooks";

export const FLOW_STREAM_EVENTS = ["flow.sweep", "flow.block", "flow.unusual"] as const;
export const STREAM_EVENTS = [...WEBHOOK_EVENTS, ...FLOW_STREAM_EVENTS] as const;
export type StreamEventType = (typeof STREAM_EVENTS)[number];
export const MAX_STREAM_SYMBOLS = 50;
/** How far back `Last-Event-ID` resumes: events are kept this long (48 h), at least 24 h is promised. */
export const STREAM_RETENTION_HOURS = 48;
export const STREAM_HEARTBEAT_MS = 15_000;
/** A stream of a server process that died stops counting against its key's limit this long after the last renewal. */
export const STREAM_LEASE_TTL_MS = 30_000;
/** Each process renews its streams' leases this often (six renewals per lifetime: a missed one or two change nothing). */
export const STREAM_LEASE_RENEW_MS = 5_000;
/** A stream with more than this many bytes written but not yet read by its client ends with `slow_consumer`. */
export const STREAM_MAX_UNREAD_BYTES = 4 * 1024 * 1024;

const decimal = (name: string, min: number, max: number, exclusiveMin = false) =>
  z
    .string()
    .regex(/^\d{1,15}(\.\d{1,6})?$/, { message: "must be a non-negative decimal number" })
    .transform(Number)
    .refine((n) => (exclusiveMin ? n > min : n >= min) && n <= max, {
      message: `must be ${exclusiveMin ? "above" : "at least"} ${min} and at most ${max}`,
    })
    .describe(name)
    .meta({
      [DOCUMENTED_NUMBER]: {
        type: "number",
        ...(exclusiveMin ? { exclusiveMinimum: min } : { minimum: min }),
        maximum: max,
      } satisfies DocumentedNumber,
    });

const commaList = (s: string) =>
  s
    .split(",")
    .map((x) => x.trim())
    .filter((x) => x !== "");

export const streamQuery = z
  .object({
    events: z
      .string()
      .max(400)
      .transform(commaList)
      .pipe(
        z
          .array(z.enum(STREAM_EVENTS, { message: `must name events among ${STREAM_EVENTS.join(", ")}` }))
          .min(1, { message: "must name at least one event" }),
      )
      .describe(`Comma-separated event types: ${STREAM_EVENTS.join(", ")}.`),
    symbols: z
      .string()
      .max(MAX_STREAM_SYMBOLS * 10)
      .transform((s) => commaList(s).map((x) => x.toUpperCase()))
      .pipe(
        z
          .array(
            z.string().regex(SYMBOL_PATTERN, {
              message: "must be ticker symbols: 1–6 letters, optionally . or - and 1–2 letters (e.g. BRK.B)",
            }),
          )
          .min(1)
          .max(MAX_STREAM_SYMBOLS),
      )
      .optional()
      .describe(
        `Comma-separated symbols to watch (1–${MAX_STREAM_SYMBOLS}, case-insensitive); every symbol when absent.`,
      ),
    iv_rank_above: decimal("iv_rank.crossed_above fires when IV rank rises above this (0–100).", 0, 100).optional(),
    iv_rank_below: decimal("iv_rank.crossed_below fires when IV rank falls below this (0–100).", 0, 100).optional(),
    iv_change_above: decimal(
      "iv.day_change_exceeded fires when |30-day ATM IV − previous close| exceeds this, in vol points.",
      0,
      100,
      true,
    ).optional(),
    min_premium: decimal("flow.* events are sent only at or above this premium (USD, default 0).", 0, 1e12).optional(),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (new Set(q.events).size !== q.events.length)
      ctx.addIssue({ code: "custom", path: ["events"], message: "events must not repeat" });
    const need = (event: StreamEventType, field: "iv_rank_above" | "iv_rank_below" | "iv_change_above") => {
      if (q.events.includes(event) && q[field] === undefined)
        ctx.addIssue({ code: "custom", path: [field], message: `required with ${event}` });
    };
    need("iv_rank.crossed_above", "iv_rank_above");
    need("iv_rank.crossed_below", "iv_rank_below");
    need("iv.day_change_exceeded", "iv_change_above");
  });
export type StreamQuery = z.output<typeof streamQuery>;

const n = (d: string) => z.number().nullable().optional().describe(d);
const str = (d: string) => z.string().optional().describe(d);
/** The market events' fields (as the webhook payload's data) or the flow event's; always the four labels. */
const streamEventData = z
  .object({
    environment: z.enum(["test", "live"]).describe("Key environment: test keys stream the demo market."),
    isMockData: z.boolean().meta({ example: true }),
    dataLabel: z.string().describe("demo for test keys, live for live keys.").meta({ example: "demo" }),
    disclaimer: z.string(),
    asOf: str("Market events: as-of time of the analytics that crossed."),
    threshold: n("Market events: this stream's threshold that was crossed (null for decision changes)."),
    ivRank: n("iv_rank.*: IV rank now (0–100)."),
    previousIvRank: n("iv_rank.*: IV rank at the previous data version."),
    ivDayChange: n("iv.day_change_exceeded: 30-day ATM IV now minus the previous close, in vol points."),
    atmIv30: n("30-day ATM implied volatility (0.25 = 25%)."),
    decision: str("no_trade.decision_changed: the decision now."),
    previousDecision: str("no_trade.decision_changed: the decision before."),
    id: str("flow.*: the options-flow event's id (as listOptionsFlow answers it)."),
    time: str("flow.*: time of the event's last print (ISO 8601, UTC)."),
    type: z.enum(["sweep", "block", "unusual"]).optional().describe("flow.*: the flow event's type."),
    contract: z
      .object({ expiry: z.string(), strike: z.number(), right: z.enum(["call", "put"]) })
      .optional()
      .describe("flow.*: the option contract."),
    size: n("flow.*: contracts."),
    avgPrice: n("flow.*: size-weighted average price."),
    premium: n("flow.*: price × size × 100, USD."),
    side: str("flow.*: ask, ask_side, mid, bid_side, bid or unknown."),
    sentiment: str("flow.*: bullish, bearish or neutral."),
    exchangeCount: n("flow.*: distinct exchanges."),
    legs: n("flow.*: prints aggregated."),
    unusual: z.boolean().optional().describe("flow.*: same-day volume above open interest (see listOptionsFlow)."),
    volumeOiRatio: n("flow.*: same-day volume / open interest."),
    moneyness: z.enum(["itm", "atm", "otm"]).nullable().optional().describe("flow.*: against spot."),
  })
  .describe(
    "For the four market events, as the webhook payload's data; for flow.* the options-flow event (camelCase, as stored); always environment, isMockData, dataLabel and disclaimer.",
  );

/** One event as the stream's `data:` line carries it (JSON); the SSE `id:` line repeats `id`. */
export const streamEvent = z
  .object({
    id: z
      .string()
      .describe("The event's id, also sent as the SSE id; send it back as Last-Event-ID to resume after it."),
    type: z.enum(STREAM_EVENTS),
    symbol: z.string(),
    timestamp: z.string().describe("When the service detected the event (ISO 8601, UTC)."),
    data: streamEventData,
  })
  .describe(
    "Sent as Server-Sent Events (text/event-stream): `id: <id>`, `event: <type>`, `data: <this object as JSON>`. A comment line `: heartbeat` comes every 15 s. The stream ends with `event: error` carrying the family B error body when the key is revoked or deactivated, the plan or licensing no longer allows the stream, the day's quota is spent, or the client reads too slowly (`slow_consumer`: more than 4 MiB unread; reconnect with Last-Event-ID).",
  );
export type StreamEvent = z.output<typeof streamEvent>;
