/** One error class and one code → status table for the whole API (docs/api-contract.md §1–§6). */
import type { DomainError, DomainErrorCode } from "../domain/errors";
import type { EngineError } from "../engine/errors";

export const ERROR_STATUS = {
  invalid_request: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  inactive_key: 403,
  subscription_required: 403,
  plan_limit_exceeded: 403,
  endpoint_pending_licensing: 403,
  not_found: 404,
  symbol_not_found: 404,
  method_not_allowed: 405,
  idempotency_key_in_use: 409,
  payload_too_large: 413,
  idempotency_key_reused: 422,
  rate_limit_exceeded: 429,
  slow_consumer: 429,
  internal_error: 500,
  data_source_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

// Groups of codes routes declare (a route's `errors`). The router, not a route, answers 404 `not_found` for an
// unknown path and 405 `method_not_allowed` for a known path with another method: no operation declares them for that.
/** Any route: a malformed path, query or body (or an unknown query parameter), and an unexpected failure. */
export const REQUEST_ERRORS = ["invalid_request", "internal_error"] as const satisfies readonly ErrorCode[];
/** Routes that take a key: the credential checks, in the order they are made (docs/api-contract.md §2). */
export const AUTH_ERRORS = [
  "missing_api_key",
  "invalid_api_key",
  "inactive_key",
  "subscription_required",
] as const satisfies readonly ErrorCode[];
/** Metered routes: licensing, the two windows, and the store that enforces them being unreachable (fail closed). */
export const LIMIT_ERRORS = [
  "endpoint_pending_licensing",
  "rate_limit_exceeded",
  "plan_limit_exceeded",
  "data_source_unavailable",
] as const satisfies readonly ErrorCode[];
/** POST and PATCH routes: the Idempotency-Key rules (docs/api-contract.md "Idempotent requests"). */
export const IDEMPOTENCY_ERRORS = [
  "idempotency_key_in_use",
  "idempotency_key_reused",
] as const satisfies readonly ErrorCode[];
/** Every keyed, metered route answers these. */
export const KEYED_ROUTE_ERRORS = [...REQUEST_ERRORS, ...AUTH_ERRORS, ...LIMIT_ERRORS] as const;

export const ERROR_DESCRIPTIONS: Record<ErrorCode, string> = {
  invalid_request:
    "The request is malformed: a bad path parameter, query parameter, header or JSON body. The message names the field.",
  missing_api_key: "No API key was sent in Authorization: Bearer, x-api-key or X-Service-Key.",
  invalid_api_key:
    "The key is malformed (wrong prefix, length or checksum), unknown, revoked, or expired (rolled, after its overlap).",
  inactive_key: "The key, or the account that owns it, is deactivated.",
  subscription_required: "The account's plan does not include what the request needs (live key style, or webhooks).",
  plan_limit_exceeded:
    "The account's quota for the key's environment and the current window (calendar month for family A, UTC day for family B) is spent: it is shared by all of the account's keys of that environment.",
  endpoint_pending_licensing: "The endpoint is switched off for this key environment pending a data-licensing review.",
  not_found: "No such route, or no such resource for this account.",
  symbol_not_found: "The symbol is well-formed but the service has no data for it.",
  method_not_allowed: "The route exists but not with this HTTP method; see the Allow header.",
  payload_too_large: "The request body exceeds the plan's maximum payload.",
  idempotency_key_in_use:
    "A request with this Idempotency-Key is still being processed; retry after it finishes to get its answer.",
  idempotency_key_reused:
    "This Idempotency-Key was already used with a different request (method, path or body) in the last 24 hours.",
  rate_limit_exceeded: "The calling key's per-minute burst limit is spent; retry after the Retry-After seconds.",
  slow_consumer:
    "Live stream only, as its final error event (never an HTTP answer): the client read so slowly that more than 4 MiB waited unsent; reconnect with Last-Event-ID to resume.",
  internal_error: "An unexpected failure; quote the request id to support.",
  data_source_unavailable: "The data source for this request has no data or cannot be reached.",
};

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = ERROR_STATUS[code];
  }
}

/**
 * What an error answer is rendered from. ApiError is one; the limit refusals the pipeline renders for every admitted call
 * (their sizes go with its usage event) are plain objects: no stack trace to capture for an answer seldom sent.
 */
export type ErrorAnswerSpec = Pick<ApiError, "code" | "status" | "message" | "headers">;

export const invalid = (message: string) => new ApiError("invalid_request", message);

/** The one mapping from domain errors (thrown by the engine and the domain functions) to the API's codes. */
const FROM_DOMAIN: Record<DomainErrorCode, ErrorCode> = {
  invalid: "invalid_request",
  unauthenticated: "missing_api_key",
  forbidden: "invalid_request",
  subscription_required: "subscription_required",
  not_found: "not_found",
  symbol_not_found: "symbol_not_found",
  conflict: "invalid_request",
  rate_limited: "rate_limit_exceeded",
  unavailable: "data_source_unavailable",
};

export const fromDomainError = (err: DomainError) => new ApiError(FROM_DOMAIN[err.code], err.message);
export const fromEngineError = (err: EngineError) => new ApiError(FROM_DOMAIN[err.code], err.message);
