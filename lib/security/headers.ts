/**
 * Security headers. Pages get a per-request nonce CSP from proxy.ts (Next applies the nonce to its own scripts);
 * everything, /api/v1 included, gets the static set from next.config.ts. Nothing is loaded from another host.
 */

/** The CSP of an HTML page. Styles allow inline attributes (charts set them); scripts need the request's nonce. */
export function pageCsp(nonce: string, dev = false): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** JSON responses render nothing and may not be framed. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

export const HSTS = "max-age=63072000; includeSubDomains";

/** Headers on every response; HSTS only in production (browsers ignore it over plain HTTP anyway). */
export function commonSecurityHeaders(production: boolean): { key: string; value: string }[] {
  return [
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    { key: "X-Frame-Options", value: "DENY" },
    { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
    ...(production ? [{ key: "Strict-Transport-Security", value: HSTS }] : []),
  ];
}
