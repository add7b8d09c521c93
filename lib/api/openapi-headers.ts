/**
 * The response headers the reference declares (docs/api-contract.md §1, §4, §11): every response says which headers it
 * carries, defined once under components.headers.
 */
import type { RouteDef } from "./route";

type Json = Record<string, unknown>;

interface HeaderDoc {
  description: string;
  schema: Json;
}

const header = (description: string, schema: Json = { type: "string" }): HeaderDoc => ({ description, schema });

export const RESPONSE_HEADERS: Record<string, HeaderDoc> = {
  XRequestId: header("The request id: yours when you sent a safe one of up to 128 characters, else a new one."),
  RateLimitPolicy: header('The windows (IETF ratelimit-headers, structured field): `"minute";q=10;w=60, "month";…`.'),
  RateLimit: header('What is left of each window: `"minute";r=7;t=42, "month";…` (r remaining, t seconds to reset).'),
  XRateLimitLimit: header("Calls allowed in the per-minute window.", { type: "integer" }),
  XRateLimitRemaining: header("Calls left in the per-minute window.", { type: "integer" }),
  XRateLimitReset: header("Unix time (seconds) at which the per-minute window resets.", { type: "integer" }),
  RetryAfter: header("Seconds to wait before retrying.", { type: "integer" }),
  WWWAuthenticate: header('`Bearer realm="api"`, with `error="invalid_token"` when the key sent was refused.'),
  Location: header("The created resource's URL, e.g. /api/v1/alerts/{webhookId}."),
  ETag: header("Weak validator of the payload; send it back in If-None-Match to get 304 while it is unchanged."),
  CacheControl: header("`private, max-age=N` (N: seconds to the next market data update) or `private, no-cache`."),
  IdempotentReplayed: header("`true` when the answer is the kept answer of an earlier call with this Idempotency-Key."),
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
const RATE = ["RateLimitPolicy", "RateLimit", "XRateLimitLimit", "XRateLimitRemaining", "XRateLimitReset"];
const names: Record<string, string> = {
  XRequestId: "X-Request-Id",
  RateLimitPolicy: "RateLimit-Policy",
  RateLimit: "RateLimit",
  XRateLimitLimit: "X-RateLimit-Limit",
  XRateLimitRemaining: "X-RateLimit-Remaining",
  XRateLimitReset: "X-RateLimit-Reset",
  RetryAfter: "Retry-After",
  WWWAuthenticate: "WWW-Authenticate",
  Location: "Location",
  ETag: "ETag",
  CacheControl: "Cache-Control",
  IdempotentReplayed: "Idempotent-Replayed",
};

/** The headers of one of the route's responses (status as declared; 304 for conditional GETs). */
export function headersFor(route: RouteDef, status: number): Record<string, { $ref: string }> {
  const list = ["XRequestId"];
  if (route.authenticated && status !== 401) list.push(...RATE);
  if (status === 401) list.push("WWWAuthenticate");
  if (status === 429 || status === 503) list.push("RetryAfter");
  if (status === 201) list.push("Location");
  if ((status === 200 || status === 304) && route.method === "GET" && !route.streams && route.authenticated)
    list.push("ETag", "CacheControl");
  if (status >= 200 && status < 300 && (route.method === "POST" || route.method === "PATCH"))
    list.push("IdempotentReplayed");
  return Object.fromEntries(list.map((n) => [names[n], ref(n)]));
}
