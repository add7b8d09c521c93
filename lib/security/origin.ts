/**
 * The CSRF check for state-changing portal requests: the browser's Origin must equal the portal's public origin
 * (APP_URL) in full (scheme, host and port). X-Forwarded-Host and Host are never consulted: a client can set them.
 * Without an Origin header, Sec-Fetch-Site must say same-origin (browsers send one or the other; SameSite=Lax cookies
 * are the second layer).
 */
import { appEnv } from "../env";

const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

/**
 * The origins the portal's own pages have: APP_URL's. Without APP_URL (a local run) the default
 * `http://localhost:$PORT` and its loopback spellings (127.0.0.1, [::1]) on the same port: all this machine.
 */
export function portalOrigins(env: { APP_URL?: string; PORT: number } = appEnv()): string[] {
  if (env.APP_URL) return [new URL(env.APP_URL).origin];
  return LOOPBACK_HOSTS.map((host) => `http://${host}:${env.PORT}`);
}

export function sameOriginRequest(request: Request, allowed: string | readonly string[] | undefined): boolean {
  const expected = (typeof allowed === "string" ? [allowed] : (allowed ?? [])).flatMap((url) => {
    try {
      return [new URL(url).origin];
    } catch {
      return [];
    }
  });
  if (expected.length === 0) return false;
  const origin = request.headers.get("origin");
  if (origin !== null) return expected.includes(origin);
  return request.headers.get("sec-fetch-site") === "same-origin";
}
