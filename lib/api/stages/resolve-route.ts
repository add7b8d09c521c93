/** The first stage: request id, clock and route; an unknown path (404) or method (405) is answered here. */
import { errorBody } from "../envelope";
import { ApiError } from "../errors";
import { requestIdFrom } from "../request-id";
import { servedFacts } from "../served-facts";
import { reply } from "./answer";
import { anonymous, type Arrival, type Call, DEMO_VIEW, type StageDeps } from "./call";

export async function resolveRoute(
  arrival: Arrival,
  deps: Pick<StageDeps, "match" | "clock">,
): Promise<Call | Response> {
  const { request, url } = arrival;
  const now = deps.clock();
  const requestId = requestIdFrom(request.headers);
  const path = url.pathname.length > 1 && url.pathname.endsWith("/") ? url.pathname.slice(0, -1) : url.pathname;
  const m = deps.match(request.method === "HEAD" ? "GET" : request.method, path);
  const facts = servedFacts(request);
  if (m.kind !== "not_found") facts.family = m.route.family; // the request metrics' label
  if (m.kind === "route") {
    const errorContext = anonymous(now);
    // A literal, not `{ ...arrival, … }`: on Node 20 a spread followed by more properties costs microseconds a call
    // (docs/benchmark.md, 28 Nov); tests/unit/request-path-allocation.test.ts keeps it out of the request path.
    return {
      request,
      url,
      started: arrival.started,
      facts,
      path,
      requestId,
      now,
      route: m.route,
      rawParams: m.params,
      errorContext,
      caller: null,
      view: DEMO_VIEW,
      bodyText: "",
    };
  }
  if (m.kind === "not_found") {
    const error = new ApiError("not_found", `No route ${path} under /api/v1.`);
    return reply(error.status, errorBody("A", error, anonymous(now)), requestId);
  }
  const allow = m.allow.join(", ");
  const error = new ApiError("method_not_allowed", `${request.method} is not allowed on ${path}; allowed: ${allow}.`);
  return reply(error.status, errorBody(m.route.family, error, anonymous(now)), requestId, { allow });
}
