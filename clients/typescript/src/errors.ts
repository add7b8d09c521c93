/** The one error class for both route families' error bodies, plus connection failures and timeouts. */
import type { ErrorCode } from "./types.js";

/** The API's error codes, and three of the client's own: no answer, the per-attempt timeout, an answer that is not the API's. */
export type ApiErrorCode = ErrorCode | "connection_error" | "timeout" | "unexpected_response";

export class ApiError extends Error {
  override readonly name = "ApiError";
  /** HTTP status; 0 when no answer arrived (connection error, timeout). */
  readonly status: number;
  readonly code: ApiErrorCode;
  /** The answer's `X-Request-Id`; null when no answer arrived. */
  readonly requestId: string | null;
  /** Seconds from the `Retry-After` header (429, 503); null without one. */
  readonly retryAfter: number | null;

  constructor(init: {
    status: number;
    code: ApiErrorCode;
    message: string;
    requestId?: string | null;
    retryAfter?: number | null;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId ?? null;
    this.retryAfter = init.retryAfter ?? null;
  }
}
