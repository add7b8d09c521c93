/**
 * What a caller of an endpoint gets after a licensing change, as the admin's preview shows it: the gateway's own error
 * body for a pending endpoint (built with the API's error and envelope modules), or the note that calls are served.
 */
import "server-only";
import { errorBody, keyedErrorContext } from "../api/envelope";
import { pendingLicensing } from "../api/stages/licensing";

export interface LicensingPreview {
  status: number;
  body: unknown;
  summary: string;
}

export function licensingPreview(
  endpoint: { method: string; path: string; family: "A" | "B" },
  env: "test" | "live",
  state: "enabled" | "pending_licensing",
  now = new Date(),
): LicensingPreview {
  if (state === "enabled")
    return {
      status: 200,
      body: null,
      summary: `${env} keys' calls to ${endpoint.method} ${endpoint.path} are served (200, within their plan's limits).`,
    };
  const error = pendingLicensing(endpoint, env); // the very refusal the pipeline's licensing stage answers
  return {
    status: error.status,
    body: errorBody(endpoint.family, error, keyedErrorContext(env, now)),
    summary: `${env} keys' calls to ${endpoint.method} ${endpoint.path} get ${error.status} ${error.code}.`,
  };
}
