/**
 * The CSRF check for state-changing portal requests: the browser's Origin must equal the portal's public origin
 * (APP_URL) in full (scheme, host and port). X-Forwarded-Host and Host are never consulted: a client can set them.
 * Without an Origin header, Sec-Fetch-Site must say same-origin (browsers send one or the other).
 */
export function sameOriginRequest(request: Request, appUrl: string | undefined): boolean {
  if (!appUrl) return false;
  let expected: string;
  try {
    expected = new URL(appUrl).origin;
  } catch {
    return false;
  }
  const origin = request.headers.get("origin");
  if (origin !== null) return origin === expected;
  return request.headers.get("sec-fetch-site") === "same-origin";
}
