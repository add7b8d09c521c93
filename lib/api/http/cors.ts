/**
 * CORS for /api/v1 (docs/api-contract.md §11). The reference and health answer every origin. Other routes answer an
 * origin the operator lists, or one the calling key's account lists; a preflight carries no key, so it is allowed for
 * an origin any account lists, and the answer itself is then shared only with the key's own account's origins.
 */
import { requestUrl } from "../served-facts";
import { appendHeader, type HeaderRecord } from "./header-record";
import type { OriginLists, OriginSource } from "./origins";

export const PUBLIC_PATHS = new Set(["/api/v1/openapi.json", "/api/v1/health"]);

export const CORS_METHODS = "GET, HEAD, POST, PATCH, DELETE, OPTIONS";
export const CORS_REQUEST_HEADERS =
  "Authorization, x-api-key, X-Service-Key, Content-Type, Idempotency-Key, X-Request-Id, Last-Event-ID, If-None-Match, " +
  "User-Agent";
export const CORS_EXPOSED_HEADERS =
  "RateLimit, RateLimit-Policy, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, " +
  "X-Request-Id, Idempotent-Replayed, ETag, Location, WWW-Authenticate, Allow";
/** How long a browser may reuse a preflight answer (Chromium caps it at 2 hours). */
export const CORS_MAX_AGE_SECONDS = 600;

const pathOf = (request: Request) => {
  const p = requestUrl(request).pathname;
  return p.length > 1 && p.endsWith("/") ? p.slice(0, -1) : p;
};

export const isPreflight = (request: Request) =>
  request.method === "OPTIONS" && request.headers.has("origin") && request.headers.has("access-control-request-method");

/** The preflight's answer: 204, with the CORS grant only when the origin may be allowed. */
export async function preflight(request: Request, source: OriginSource): Promise<Response> {
  const origin = request.headers.get("origin") ?? "";
  const headers: HeaderRecord = { vary: "Origin", "cache-control": "no-store" };
  const grant = await grantFor(pathOf(request), origin, source, null);
  if (grant) {
    headers["access-control-allow-origin"] = grant;
    headers["access-control-allow-methods"] = CORS_METHODS;
    headers["access-control-allow-headers"] = CORS_REQUEST_HEADERS;
    headers["access-control-max-age"] = String(CORS_MAX_AGE_SECONDS);
  }
  return new Response(null, { status: 204, headers });
}

/** Adds the CORS grant to an answer, for the calling account's origins (or, with no key, any account's). */
export async function addCorsHeaders(
  request: Request,
  headers: HeaderRecord,
  source: OriginSource,
  accountId: string | undefined,
): Promise<void> {
  const origin = request.headers.get("origin");
  const path = pathOf(request);
  if (!PUBLIC_PATHS.has(path)) appendHeader(headers, "vary", "Origin");
  if (!origin) return;
  const grant = await grantFor(path, origin, source, accountId ?? null);
  if (!grant) return;
  headers["access-control-allow-origin"] = grant;
  headers["access-control-expose-headers"] = CORS_EXPOSED_HEADERS;
}

async function grantFor(
  path: string,
  origin: string,
  source: OriginSource,
  accountId: string | null,
): Promise<string | null> {
  if (PUBLIC_PATHS.has(path)) return "*";
  if (source.operator.has("*") || source.operator.has(origin)) return origin;
  const lists: OriginLists = await source.accounts();
  const allowed = accountId === null ? lists.anyAccount : lists.byAccount.get(accountId);
  return allowed?.has(origin) ? origin : null;
}
