/**
 * The one wrapper for portal route handlers (app/api/portal/**): the signed-in user, a same-origin check on every
 * state-changing method (CSRF), params, query and body parsed from the route's schemas (the body read bounded, at most
 * 64 kB: lib/http/bounded-body.ts), the database handed in, one error mapping (DomainError → its status, zod → 400
 * naming the field, a body too large → 413, anything else → a generic 500 with the request id), the success status and
 * a structured log line. Route files hold only the call to the domain function.
 */
import { ZodError, type z } from "zod";
import { currentPortalSession } from "../auth/portal-user";
import type { Database, Db } from "../db/client";
import type { Actor } from "../domain/audit";
import { DomainError } from "../domain/errors";
import { isStoreUnreachable } from "../db/deadline";
import { errorFields, log } from "../log";
import { metrics } from "../metrics/registry";
import { requestIdFrom } from "../util/request-id";
import { clientAddress } from "../security/client-address";
import { BodyError, PORTAL_JSON_LIMIT, readBoundedJson } from "../http/bounded-body";
import { portalOrigins, sameOriginRequest } from "../security/origin";
import { GateFull } from "../util/gate";
import { controlCharAt, controlCharMessage, malformedId } from "../util/input-rule";
import { isStoreRefusedValue } from "../db/refused-value";
import type { PortalUser } from "./types";
import { can, refusal, type Role } from "../shared/roles";
import { portalRouteRule } from "./route-rules";

type Schema = z.ZodType | undefined;
/** What a schema gives the handler; `Else` when the route declared none. */
type Parsed<S extends Schema, Else> = S extends z.ZodType ? z.output<S> : Else;
type RawParams = Record<string, string>;

/** A route's permission is not declared here but in lib/portal/route-rules.ts, the one table of them. */
export interface PortalRouteOptions {
  verified?: boolean;
  admin?: boolean;
  /** Routes a user with outdated terms may call (accepting the new terms); others answer 403 terms_required. */
  outdatedTerms?: boolean;
}

/** What a signed-in route's guard and handler get. */
export interface PortalContext<P = RawParams, Q = undefined, B = undefined> {
  request: Request;
  user: PortalUser;
  params: P;
  query: Q;
  body: B;
  actor: Actor;
  requestId: string;
  db: Db;
  database: Database;
}

export interface PortalRouteSpec<PS extends Schema, QS extends Schema, BS extends Schema> extends PortalRouteOptions {
  params?: PS;
  query?: QS;
  body?: BS;
  /** The success status (e.g. 201 for a creation); 200 unless given. */
  status?: number;
  /** Refusals that win over a bad body (the plan, the webhook exists), checked before the body is read. */
  guard?: (ctx: PortalContext<Parsed<PS, RawParams>, Parsed<QS, undefined>>) => Promise<void>;
}

export interface PublicPortalContext<B = undefined> {
  request: Request;
  requestId: string;
  /** Who is asking, before anyone is signed in (audits fill in the user once known). */
  origin: { requestId: string; ip?: string; userAgent?: string };
  body: B;
  db: Db;
  database: Database;
}

type RouteContext = { params: Promise<RawParams> };
const NO_PARAMS: RouteContext = { params: Promise.resolve({}) };
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function portalError(
  status: number,
  code: string,
  message: string,
  requestId: string,
  field?: string,
  fields?: Record<string, string>,
): Response {
  return Response.json(
    { error: { code, message, ...(field ? { field } : {}), ...(fields ? { fields } : {}) } },
    { status, headers: { "x-request-id": requestId, "cache-control": "no-store" } },
  );
}

/**
 * The portal's route wrappers over one database: `portalRoute` for signed-in users, `publicPortalRoute` for
 * signed-out visitors (sign-up, password reset). The app binds them to its pool (app/api/portal/portal-route.ts).
 */
export function portalRoutes(openDatabase: () => Promise<Database>) {
  function portalRoute<PS extends Schema = undefined, QS extends Schema = undefined, BS extends Schema = undefined>(
    spec: PortalRouteSpec<PS, QS, BS>,
    handler: (
      ctx: PortalContext<Parsed<PS, RawParams>, Parsed<QS, undefined>, Parsed<BS, undefined>>,
    ) => Promise<unknown>,
  ) {
    return (request: Request, routeCtx: RouteContext = NO_PARAMS): Promise<Response> =>
      servePortal(request, async (requestId) => {
        const user = await signedInUser(request, spec, requestId);
        if (user instanceof Response) return user;
        const actor: Actor = {
          type: "user",
          id: user.userId,
          email: user.email,
          role: user.role,
          ...requestOrigin(request, requestId),
        };
        const database = await openDatabase();
        const query = clean(queryOf(request)); // on every route, and before a bad param (the input rule)
        const ctx = {
          request,
          user,
          actor,
          requestId,
          database,
          db: database.db,
          params: parseWith(spec.params, checkedParams(await routeCtx.params)) as Parsed<PS, RawParams>,
          query: parseWith(spec.query, query, undefined) as Parsed<QS, undefined>,
          body: undefined,
        };
        if (spec.guard) await spec.guard(ctx);
        const body = (await readBody(spec.body, request)) as Parsed<BS, undefined>;
        return portalData(await handler({ ...ctx, body }), requestId, spec.status);
      });
  }

  function publicPortalRoute<BS extends Schema = undefined>(
    spec: { body?: BS; status?: number },
    handler: (ctx: PublicPortalContext<Parsed<BS, undefined>>) => Promise<unknown>,
  ) {
    return (request: Request): Promise<Response> =>
      servePortal(request, async (requestId) => {
        clean(queryOf(request));
        const origin = requestOrigin(request, requestId);
        const body = (await readBody(spec.body, request)) as Parsed<BS, undefined>;
        const database = await openDatabase();
        return portalData(
          await handler({ request, requestId, origin, body, database, db: database.db }),
          requestId,
          spec.status,
        );
      });
  }

  return { portalRoute, publicPortalRoute };
}

/** The signed-in user the route may serve, or the refusal: 503, 401, then 403 (terms, admin, role, e-mail). */
async function signedInUser(
  request: Request,
  spec: PortalRouteOptions,
  requestId: string,
): Promise<PortalUser | Response> {
  const session = await currentPortalSession().catch((err) => {
    log.error("portal session lookup failed", { request_id: requestId, ...errorFields(err) });
    return undefined;
  });
  if (session === undefined)
    return portalError(503, "unavailable", "The portal's store is unreachable; retry shortly.", requestId);
  if (!session) return portalError(401, "unauthenticated", "Sign in to continue.", requestId);
  const { user } = session;
  if (!session.termsCurrent && !spec.outdatedTerms)
    return portalError(403, "terms_required", "Accept the current terms of use at /terms first.", requestId);
  if (spec.admin && !user.isAdmin) return portalError(403, "forbidden", "This needs an administrator.", requestId);
  // Admin routes answer to the operator's admin flag above; account roles govern the portal's own routes.
  const refused = spec.admin ? null : roleRefusal(request, user.role, requestId);
  if (refused) return refused;
  if (spec.verified && !user.emailVerified)
    return portalError(403, "email_unverified", "Verify your e-mail address first.", requestId);
  return user;
}

/** Who sent the request, for audits. */
function requestOrigin(request: Request, requestId: string): PublicPortalContext["origin"] {
  return { requestId, ip: clientAddress(request), userAgent: request.headers.get("user-agent") ?? undefined };
}

/** The JSON body (bounded, input rule applied) parsed by the route's schema; undefined when the route takes none. */
async function readBody(schema: z.ZodType | undefined, request: Request): Promise<unknown> {
  return schema ? schema.parse(clean(await readBoundedJson(request, PORTAL_JSON_LIMIT))) : undefined;
}

/** A 403 when the member's role lacks the route's permission, or when no rule names the route (fail closed). */
function roleRefusal(request: Request, role: Role, requestId: string): Response | null {
  const path = new URL(request.url).pathname;
  const rule = portalRouteRule(request.method, path);
  if (!rule || rule === "public") {
    log.error("portal route without a permission rule", { request_id: requestId, method: request.method, path });
    return portalError(403, "forbidden", "This route declares no permission; nobody may call it.", requestId);
  }
  return can(role, rule) ? null : portalError(403, "forbidden", refusal(role, rule), requestId);
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
    if (!SAFE_METHODS.has(request.method) && !sameOriginRequest(request, portalOrigins())) {
      return portalError(403, "csrf_rejected", "This request did not come from the portal's own pages.", requestId);
    }
    try {
      return await answer(requestId);
    } catch (err) {
      return toErrorResponse(err, requestId, path);
    }
  })();
  const seconds = (performance.now() - started) / 1000;
  metrics.request(path.startsWith("/api/admin/") ? "admin" : "portal", response.status, seconds);
  // The portal's own polling (GETs answered 2xx/3xx every few seconds) stays below the default level: debug.
  const quiet = SAFE_METHODS.has(request.method) && response.status < 400;
  log[quiet ? "debug" : "info"]("portal request", {
    request_id: requestId,
    method: request.method,
    path,
    status: response.status,
    ms: Math.round(seconds * 10_000) / 10,
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

function parseWith(schema: z.ZodType | undefined, value: unknown, otherwise: unknown = value): unknown {
  return schema ? schema.parse(value) : otherwise;
}

/** The input rule (lib/util/input-rule.ts): a control character anywhere is a 400 naming the field. */
function clean<T>(value: T): T {
  const at = controlCharAt(value);
  if (at !== null) throw new DomainError("invalid", controlCharMessage(at), at ? { field: at } : {});
  return value;
}

/** Path ids: shaped like an id or the resource does not exist (404), before any SQL sees them. */
function checkedParams(params: RawParams): RawParams {
  if (malformedId(params) !== null) throw new DomainError("not_found", "No such resource.");
  return params;
}

/** The query string as an object; an empty value counts as absent (forms send every field). */
function queryOf(request: Request): Record<string, string> {
  return Object.fromEntries([...new URL(request.url).searchParams].filter(([, v]) => v !== ""));
}

export function toErrorResponse(err: unknown, requestId: string, path: string): Response {
  if (err instanceof BodyError)
    return portalError(err.status, err.status === 413 ? "payload_too_large" : "invalid", err.message, requestId);
  if (err instanceof DomainError) {
    const res = portalError(err.status, err.code, err.message, requestId, err.detail.field, err.detail.fields);
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
  if (err instanceof GateFull) {
    const res = portalError(503, "unavailable", "The server is busy hashing passwords; retry in a moment.", requestId);
    res.headers.set("retry-after", "1");
    return res;
  }
  if (isStoreRefusedValue(err)) {
    log.warn("portal value refused by the store", { request_id: requestId, path, ...errorFields(err) });
    return portalError(400, "invalid", "The request holds a value that is not accepted.", requestId);
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
