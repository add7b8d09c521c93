/** Where a browser request comes from: the client's address (for throttles and audits) and whether it is same-origin. */

export function clientAddress(request: Request): string | undefined {
  return request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || request.headers.get("x-real-ip") || undefined;
}

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
