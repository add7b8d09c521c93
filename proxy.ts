/** Pages only: a fresh nonce per request in the Content-Security-Policy (Next puts it on its own inline scripts). */
import { NextResponse, type NextRequest } from "next/server";
import { pageCsp } from "./lib/security/headers";

export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const csp = pageCsp(nonce, process.env.NODE_ENV === "development");
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
  // Not the JSON API (next.config.ts gives it a strict CSP) nor static assets.
  matcher: [{ source: "/((?!api/|_next/static|_next/image|favicon.ico).*)" }],
};
