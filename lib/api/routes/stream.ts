/**
 * GET /api/v1/stream: the filtered live stream (Server-Sent Events, docs/api-contract.md "Live stream"). The handler
 * checks the filters, Last-Event-ID, the plan and the key's concurrent streams before anything opens; the pipeline
 * admits and meters the opening call, then answers the hub's stream.
 */
import { STREAM_LEASE_TTL_MS, streamEvent, streamQuery } from "../../contract/stream";
import type { Caller } from "../credentials";
import { ApiError, KEYED_ROUTE_ERRORS } from "../errors";
import { errorFields, log } from "../../log";
import { defineRoute } from "../route";
import { parseLastEventId } from "../stream-position";
import { planName } from "../../shared/plan-name";

const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  // no-transform: no proxy or compression layer may buffer the events.
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
};

/** Live keys stream the live market, which needs real-time data (Pro, Enterprise); test keys the demo market. */
function planRefusal(caller: Caller): ApiError | null {
  if (caller.env === "live" && caller.plan.dataEntitlement !== "live")
    return new ApiError(
      "subscription_required",
      `The live stream needs real-time data: Pro (API Pro) or Enterprise (API Business); this key's plan is ${planName(caller.plan)}.`,
    );
  return null;
}

export const openStream = defineRoute({
  operationId: "openStream",
  method: "GET",
  path: "/api/v1/stream",
  family: "B",
  envelope: "B",
  streams: true,
  errors: KEYED_ROUTE_ERRORS,
  tags: ["Alerts (webhooks)"],
  authenticated: true,
  summary: "Stream market and options-flow events (Server-Sent Events)",
  description: `A live stream of the webhook events (with this stream's own thresholds) and options-flow events, filtered by event type, symbol, threshold and premium. Each event has an id; reconnect with \`Last-Event-ID\` to receive the stored events after it (kept 48 hours) before the live ones. A \`: heartbeat\` comment comes every 15 s. Opening is one call; each delivered event is one more call of the day's quota. Concurrent streams per key are limited by plan (\`x-plans\` streamsPerKey; 429 \`rate_limit_exceeded\` past it), counted across every server process sharing the database; a stream of a server process that died stops counting within ${STREAM_LEASE_TTL_MS / 1000} s. The stream ends with a final \`error\` event when the key is revoked or deactivated, the plan or licensing no longer allows it, or the quota is spent.`,
  query: streamQuery,
  response: streamEvent,
  handler: async (ctx) => {
    const after = parseLastEventId(ctx.headers.get("last-event-id"));
    if (after instanceof ApiError) throw after;
    const refused = planRefusal(ctx.caller);
    if (refused) throw refused;
    const hub = ctx.streams();
    const limit = ctx.caller.plan.streamsPerKey;
    const lease = await hub.reserve(ctx.caller, limit, ctx.requestId).catch((err: unknown) => {
      log.error("stream lease failed", { request_id: ctx.requestId, ...errorFields(err) });
      throw new ApiError("data_source_unavailable", "The service's store is unreachable; reconnect shortly.");
    });
    if (!lease)
      throw new ApiError(
        "rate_limit_exceeded",
        `This key already has ${limit} open streams, the ${planName(ctx.caller.plan.features)} plan's limit (counted across every server); close one first.`,
        { "retry-after": "5" },
      );
    const { caller, query, requestId, recheck } = ctx;
    let settled = false;
    return {
      data: undefined,
      stream: {
        open(headers, quotaUsed) {
          settled = true;
          hub.seedBudget(caller, quotaUsed, new Date());
          const body = hub.body({ caller, lease, query, requestId, after, recheck, allowed: planRefusal });
          return new Response(body, { status: 200, headers: { ...headers, ...SSE_HEADERS } });
        },
        cancel() {
          if (settled) return;
          settled = true;
          void hub.release(lease);
        },
      },
    };
  },
});
