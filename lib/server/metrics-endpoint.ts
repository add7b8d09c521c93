/**
 * GET /metrics in the Prometheus text format, on the standalone server and under `next start` (docs/operations.md
 * "Metrics"). It answers only a scraper that sends `Authorization: Bearer <METRICS_TOKEN>`; without the variable the
 * route is off (404), since a loopback-only rule would also let through whatever a proxy on the same host forwards.
 */
import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { appEnv } from "../env";
import { errorFields, log } from "../log";
import { metrics } from "../metrics/registry";
import { API_CSP } from "../security/headers";

export const METRICS_PATH = "/metrics";

const digest = (text: string) => createHash("sha256").update(text).digest();
/** On every answer of the route (the API's strict policy: nothing here is a page). */
const HEADERS = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "content-security-policy": API_CSP,
};

function refusal(status: 401 | 404 | 405, code: string, message: string, headers: Record<string, string> = {}) {
  return Response.json({ error: { code, message } }, { status, headers: { ...HEADERS, ...headers } });
}

/** Whether the request carries the token (compared as digests, in constant time). */
function authorized(request: Request, token: string): boolean {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match !== null && timingSafeEqual(digest(match[1]), digest(token));
}

export async function serveMetrics(request: Request, token = appEnv().METRICS_TOKEN): Promise<Response> {
  if (!token) return refusal(404, "not_found", "Metrics are off: set METRICS_TOKEN to serve them.");
  if (request.method !== "GET" && request.method !== "HEAD")
    return refusal(405, "method_not_allowed", "GET /metrics only.", { allow: "GET, HEAD" });
  if (!authorized(request, token))
    return refusal(401, "unauthorized", "Send Authorization: Bearer <METRICS_TOKEN>.", {
      "www-authenticate": 'Bearer realm="metrics"',
    });
  const { registry } = metrics;
  let text: string;
  try {
    text = await registry.metrics();
  } catch (err) {
    log.error("metrics scrape failed", errorFields(err));
    return Response.json(
      { error: { code: "internal_error", message: "The metrics could not be read." } },
      { status: 500, headers: HEADERS },
    );
  }
  return new Response(request.method === "HEAD" ? null : text, {
    headers: { ...HEADERS, "content-type": registry.contentType },
  });
}
