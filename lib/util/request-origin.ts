/** Whether a browser request comes from this site (the client's address is lib/security/client-address.ts). */

/** A state-changing request must come from this site: the browser's Origin (or Sec-Fetch-Site) says so; SameSite=Lax cookies are the second layer. */
export function sameOrigin(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site) return site === "same-origin";
  const origin = request.headers.get("origin");
  if (!origin) return false;
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
