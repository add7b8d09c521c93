/**
 * The one wrapper for portal route handlers (app/api/portal/**): the signed-in user, a same-origin check on every
 * state-changing method (CSRF), one error mapping (DomainError → its status, zod → 400 naming the field, anything
 * else → a generic 500 with the request id) and a structured log line.
 */
import { ZodError } from "zod";
import { currentPortalSession } from "../auth/portal-user";
import type { Actor } from "../domain/audit";
import { DomainError } from "../domain/errors";
import { isStoreUnreachable } from "../db/deadline";
import { errorFields, log } from "../log";
import { requestIdFrom } from "../api/request-id";
import type { PortalUser } from "./types";

export interface PortalContext<P> {
  request: Request;
  user: PortalUser;
  params: P;
  actor: Actor;
  requestId: string;
}

export interface PortalRouteOptions {
  /** Owner-only actions (keys, plan, access requests): a member gets 403. */
  owner?: boolean;
  verified?: boolean;
  admin?: boolean;
  /** Routes a user with outdated terms may call (accepting the new terms); others answer 403 terms_required. */
  outdatedTerms?: boolean;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function portalError(
  status: number,
  code: string,
  message: string,
  requestId: string,
  field?: string,
): Response {
  return Response.json(
    { error: { code, message, ...(field ? { field } : {}) } },
    { status, headers: { "x-request-id": requestId, "cache-control": "no-store" } },
  );
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

export function clientAddress(request: Request): string | undefined {
  return request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || request.headers.get("x-real-ip") || undefined;
}

/**
 * What every portal route shares: the request id, the same-origin check on state-changing methods, one error mapping
 * and the log line. `answer` gives the route's own response (or throws, mapped by toErrorResponse).
 */
async function servePortal(request: Request, answer: (requestId: string) => Promise<Response>): Promise<Response> {
  const requestId = requestIdFrom(request.headers);
  const started = performance.now();
  const path = new URL(request.url).pathname;
  const response = await (async () => {
    if (!SAFE_METHODS.has(request.method) && !sameOrigin(request)) {
      return portalError(403, "csrf_rejected", "This request did not come from the portal's own pages.", requestId);
    }
    try {
      return await answer(requestId);
    } catch (err) {
      return toErrorResponse(err, requestId, path);
    }
  })();
  log.info("portal request", {
    request_id: requestId,
    method: request.method,
    path,
    status: response.status,
    ms: Math.round((performance.now() - started) * 10) / 10,
  });
  return response;
}

/** A handler's result as the portal's JSON answer (`{data}`), unless it answered a Response itself. */
function portalData(data: unknown, requestId: string, status = 200): Response {
  if (data instanceof Response) return data;
  return Response.json(
    { data: data ?? null },
    { status, headers: { "x-request-id": requestId, "cache-control": "no-store" } },
  );
}

export function portalRoute<P = Record<string, string>>(
  handler: (ctx: PortalContext<P>) => Promise<unknown>,
  opts: PortalRouteOptions = {},
) {
  return (
    request: Request,
    routeCtx: { params: Promise<P> } = { params: Promise.resolve({} as P) },
  ): Promise<Response> =>
    servePortal(request, async (requestId) => {
      const session = await currentPortalSession().catch((err) => {
        log.error("portal session lookup failed", { request_id: requestId, ...errorFields(err) });
        return undefined;
      });
      if (session === undefined)
        return portalError(503, "unavailable", "The portal's store is unreachable; retry shortly.", requestId);
      if (!session) return portalError(401, "unauthenticated", "Sign in to continue.", requestId);
      const { user } = session;
      if (!session.termsCurrent && !opts.outdatedTerms)
        return portalError(403, "terms_required", "Accept the current terms of use at /terms first.", requestId);
      if (opts.admin && !user.isAdmin) return portalError(403, "forbidden", "This needs an administrator.", requestId);
      if (opts.owner && user.role !== "owner")
        return portalError(403, "forbidden", "Only the account's owner can do this.", requestId);
      if (opts.verified && !user.emailVerified)
        return portalError(403, "email_unverified", "Verify your e-mail address first.", requestId);
      const actor: Actor = {
        type: "user",
        id: user.userId,
        requestId,
        ip: clientAddress(request),
        userAgent: request.headers.get("user-agent") ?? undefined,
      };
      return portalData(await handler({ request, user, params: await routeCtx.params, actor, requestId }), requestId);
    });
}

export interface PublicPortalContext {
  request: Request;
  requestId: string;
  /** Who is asking, before anyone is signed in (audits fill in the user once known). */
  origin: { requestId: string; ip?: string; userAgent?: string };
}

/** Portal routes for signed-out visitors (sign-up, password reset): the same CSRF check, error mapping and log line. */
export function publicPortalRoute(
  handler: (ctx: PublicPortalContext) => Promise<unknown>,
  opts: { status?: number } = {},
) {
  return (request: Request): Promise<Response> =>
    servePortal(request, async (requestId) => {
      const origin = {
        requestId,
        ip: clientAddress(request),
        userAgent: request.headers.get("user-agent") ?? undefined,
      };
      return portalData(await handler({ request, requestId, origin }), requestId, opts.status ?? 200);
    });
}

export function toErrorResponse(err: unknown, requestId: string, path: string): Response {
  if (err instanceof DomainError) {
    const res = portalError(err.status, err.code, err.message, requestId, err.detail.field);
    if (err.detail.retryAfterSeconds !== undefined)
      res.headers.set("retry-after", String(err.detail.retryAfterSeconds));
    return res;
  }
  if (err instanceof ZodError) {
    const issue = err.issues[0];
    const field = issue?.path.join(".") || undefined;
    return portalError(
      400,
      "invalid",
      field ? `${field}: ${issue.message}` : (issue?.message ?? "Invalid input."),
      requestId,
      field,
    );
  }
  if (isStoreUnreachable(err)) {
    log.warn("portal store unreachable", { request_id: requestId, path, ...errorFields(err) });
    const res = portalError(503, "unavailable", "The portal's store is unreachable; retry shortly.", requestId);
    res.headers.set("retry-after", "5");
    return res;
  }
  log.error("portal handler failed", { request_id: requestId, path, ...errorFields(err) });
  return portalError(
    500,
    "internal_error",
    `Something went wrong on our side. Quote request id ${requestId} to support.`,
    requestId,
  );
}

/** Reads a JSON body (≤ 64 kB) or answers a clear 400. */
export async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.length > 64 * 1024) throw new DomainError("invalid", "The request body is larger than 64 kB.");
  try {
    return text === "" ? {} : JSON.parse(text);
  } catch {
    throw new DomainError("invalid", "The request body is not valid JSON.");
  }
}
