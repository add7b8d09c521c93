/**
 * A domain rule was broken; the CLI, the portal and the API each turn it into their own error shape through
 * DOMAIN_ERROR_STATUS.
 */
import "server-only";
export const DOMAIN_ERROR_STATUS = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  subscription_required: 403,
  not_found: 404,
  symbol_not_found: 404,
  conflict: 409,
  rate_limited: 429,
  unavailable: 503,
} as const;

export type DomainErrorCode = keyof typeof DOMAIN_ERROR_STATUS;

export class DomainError extends Error {
  readonly status: number;
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** Extra detail for the caller: the form field at fault, or how long to wait. */
    readonly detail: { field?: string; fields?: Record<string, string>; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = "DomainError";
    this.status = DOMAIN_ERROR_STATUS[code];
  }
}
