/**
 * Pages: a fresh nonce per request in the Content-Security-Policy (Next puts it on its own inline scripts).
 * /api/ paths with a percent sign: a malformed percent-encoding is answered here with a 400 in the family's error shape
 * (the contract's for /api/v1, the portal's elsewhere), because Next would otherwise fail decoding the route parameters
 * with a plain-text error page. Page paths with a malformed encoding get a plain 400 page with the pages' headers.
 */
import { NextResponse, type NextRequest } from "next/server";
import { API_CSP, commonSecurityHeaders, pageCsp } from "./lib/security/headers";

function decodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

const BAD_PATH = "The request path is not valid percent-encoding.";

function badPathHeaders(type: string, csp: string): Headers {
  const headers = new Headers({ "content-type": type, "cache-control": "no-store" });
  headers.set("content-security-policy", csp);
  for (const h of commonSecurityHeaders(process.env.NODE_ENV === "production")) headers.set(h.key, h.value);
  return headers;
}

/** A page path Next could not decode: a plain, script-free 400 page with the pages' security headers. */
function badPagePath(csp: string): NextResponse {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Bad request</title></head><body><main><h1>Bad request</h1><p>${BAD_PATH}</p><p><a href="/">Go to the home page</a></p></main></body></html>`;
  return new NextResponse(html, { status: 400, headers: badPathHeaders("text/html; charset=utf-8", csp) });
}

export function proxy(request: NextRequest) {
  if (request.nextUrl.pathname.startsWith("/api/")) {
    if (decodable(request.nextUrl.pathname)) return NextResponse.next();
    const code = request.nextUrl.pathname.startsWith("/api/v1/") ? "invalid_request" : "invalid";
    const body = { error: { code, message: BAD_PATH } };
    return new NextResponse(JSON.stringify(body), {
      status: 400,
      headers: badPathHeaders("application/json", API_CSP),
    });
  }
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const csp = pageCsp(nonce, process.env.NODE_ENV === "development");
  if (!decodable(request.nextUrl.pathname)) return badPagePath(csp);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", csp);
  // Pages redirect signed-out visitors to sign-in and back here (lib/auth/portal-user.ts).
  requestHeaders.set("x-portal-path", request.nextUrl.pathname + request.nextUrl.search);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", csp);
  return response;
}

export const config = {
  matcher: [
    // Not the JSON API (next.config.ts gives it a strict CSP), the metrics scrape nor static assets…
    { source: "/((?!api/|metrics$|_next/static|_next/image|favicon.ico).*)" },
    // …except API paths carrying a percent sign, checked for a well-formed encoding.
    { source: "/api/:path(.*%.*)" },
  ],
};
