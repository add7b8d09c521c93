/**
 * The body of an error answer as the request log keeps it (migration 0028): only the error's message is stored, secrets
 * taken out, at most LOGGED_ERROR_MAX characters; with the code, the route's family, the calling key's environment and
 * the call's time (all stored with the event) it renders the very body the caller got, by the function that rendered it
 * (errorBody), so a row costs a short message, not a copy of the disclaimer. Success answers keep nothing.
 */
import { errorBody, keyedErrorContext } from "./envelope";
import type { ErrorCode } from "./errors";
import { REDACTED, withoutServiceKeys } from "./logged-path";
import type { Family } from "./route";

export const LOGGED_ERROR_MAX = 1000;

/** user:password@ in a URL an error quotes back (a webhook target, say). */
const URL_CREDENTIALS = /(\/\/)[^/\s@]+@/g;

/** An error message as the usage event keeps it. */
export function loggedErrorMessage(message: string): string {
  let out = withoutServiceKeys(message.includes("\u0000") ? message.replaceAll("\u0000", "") : message);
  if (out.includes("@")) out = out.replace(URL_CREDENTIALS, `$1${REDACTED}@`);
  return out.length <= LOGGED_ERROR_MAX ? out : `${out.slice(0, LOGGED_ERROR_MAX - 1)}…`;
}

export interface LoggedError {
  family: Family;
  env: "test" | "live";
  code: string;
  message: string;
  /** The call's time as metered (the event's created_at): family B's `timestamp`. */
  time: Date;
}

/** The error body the caller got, from what the usage event keeps. */
export const loggedErrorBody = (e: LoggedError): unknown =>
  errorBody(e.family, { code: e.code as ErrorCode, message: e.message }, keyedErrorContext(e.env, e.time));
