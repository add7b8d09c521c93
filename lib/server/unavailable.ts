import "server-only";
import { randomUUID } from "node:crypto";
import { errorFields, log } from "../log";

const SHUTTING_DOWN = "The service is shutting down; retry shortly.";
const STARTING = "The service is starting or its store is unreachable; retry shortly.";

/** A contract-shaped 503 data_source_unavailable with Retry-After; `err` (when given) goes to the log only. */
export function unavailableResponse(err?: unknown, message = STARTING, retryAfter = "5"): Response {
  const requestId = `req_${randomUUID().replaceAll("-", "")}`;
  if (err !== undefined) log.error("gateway unavailable", { request_id: requestId, ...errorFields(err) });
  return new Response(JSON.stringify({ error: { code: "data_source_unavailable", message } }), {
    status: 503,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "x-request-id": requestId,
      "retry-after": retryAfter,
    },
  });
}

/** What a call still in flight when the shutdown grace runs out is answered (never a reset connection). */
export const shuttingDownResponse = () => unavailableResponse(undefined, SHUTTING_DOWN, "1");
