import "server-only";
import { randomUUID } from "node:crypto";
import { errorFields, log } from "../log";

/** The gateway could not start (database down): a contract-shaped 503, details only in the log. */
export function unavailableResponse(err: unknown): Response {
  const requestId = `req_${randomUUID().replaceAll("-", "")}`;
  log.error("gateway unavailable", { request_id: requestId, ...errorFields(err) });
  return new Response(
    JSON.stringify({
      error: {
        code: "data_source_unavailable",
        message: "The service is starting or its store is unreachable; retry shortly.",
      },
    }),
    {
      status: 503,
      headers: { "content-type": "application/json; charset=utf-8", "x-request-id": requestId, "retry-after": "5" },
    },
  );
}
