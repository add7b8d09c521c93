/**
 * The one pipeline every /api/v1 request goes through (CONTRACT §2–§6):
 * request id → route → credentials → payload size → licensing → handler → burst + quota + metering → envelope.
 * The handler runs before the limits statement so that limits and metering share one database round trip; handlers
 * that touch account state run only after their call is admitted.
 */
import type { Database, Db } from "../db/client";
import { isStoreUnreachable } from "../db/deadline";
import { clientOf } from "../db/tx";
import type { AnalyticsEngine, ViewSpec } from "../engine/types";
import { dataLabel } from "../engine/types";
import { appEnv } from "../env";
import { errorFields, log } from "../log";
import { ConfigCache, licensingState } from "./config-cache";
import { authenticate, KeyVerifier, type Caller } from "./credentials";
import { errorBody, successJson, type ErrorContext } from "./envelope";
import { ApiError, fromDomainError } from "./errors";
import { DomainError } from "../domain/errors";
import { AdmissionBatcher, type BatchOptions } from "./admission";
import { settle, takeQuota, type Metered } from "./limits";
import { touchLastUsed } from "./last-used";
import { parseJsonBody, parseParams, parseQuery, readBody } from "./parse-input";
import { rateLimitHeaders } from "./rate-headers";
import { requestIdFrom } from "./request-id";
import type { Family, HandlerResult, RouteDef } from "./route";
import { createRouter } from "./router";
import { burstWindow, quotaWindow, secondsLeft, type Window } from "./windows";

export interface PipelineDeps {
  database: Database;
  engine: AnalyticsEngine;
  routes: RouteDef[];
  keyCacheTtlMs: number;
  configCacheTtlMs: number;
  clock?: () => Date;
  /** Admission batching bounds; defaults from ADMISSION_BATCH_MAX / ADMISSION_QUEUE_MAX / ADMISSION_IN_FLIGHT. */
  admission?: BatchOptions;
}

type Outcome = { ok: true; result: HandlerResult } | { ok: false; error: ApiError };

const JSON_TYPE = "application/json; charset=utf-8";
const ROLLBACK = new Error("rollback"); // thrown inside a transaction to undo a call that did not succeed
/** Limits and metering cannot be enforced without the database: refuse rather than serve unmetered (fail closed). */
const storeUnreachable = () =>
  new ApiError("data_source_unavailable", "The service's store is unreachable; retry shortly.");

export function createPipeline(deps: PipelineDeps) {
  const verifier = new KeyVerifier(deps.database, deps.keyCacheTtlMs);
  const config = new ConfigCache(deps.database, deps.configCacheTtlMs);
  const match = createRouter(deps.routes);
  const clock = deps.clock ?? (() => new Date());
  const env = appEnv();
  const admission = new AdmissionBatcher(
    deps.database.sql,
    deps.admission ?? {
      maxBatch: env.ADMISSION_BATCH_MAX,
      maxQueue: env.ADMISSION_QUEUE_MAX,
      maxInFlight: env.ADMISSION_IN_FLIGHT,
      deadlineMs: env.DB_DEADLINE_MS,
    },
  );

  function respond(status: number, body: unknown, requestId: string, extra: Record<string, string> = {}): Response {
    const text = typeof body === "string" ? body : JSON.stringify(body);
    return new Response(text, { status, headers: { "content-type": JSON_TYPE, "x-request-id": requestId, ...extra } });
  }

  function fail(
    family: Family,
    error: ApiError,
    requestId: string,
    ctx: ErrorContext,
    extra: Record<string, string> = {},
  ): Response {
    return respond(error.status, errorBody(family, error, ctx), requestId, { ...error.headers, ...extra });
  }

  /** Parses the inputs and calls the handler; synchronous when the handler answers from memory. */
  function run(
    route: RouteDef,
    request: Request,
    url: URL,
    rawParams: Record<string, string>,
    caller: Caller | null,
    view: ViewSpec,
    requestId: string,
    now: Date,
    bodyText: string,
    database: Database = deps.database,
  ): Outcome | Promise<Outcome> {
    const failed = (err: unknown): Outcome => {
      if (err instanceof ApiError) return { ok: false, error: err };
      if (err instanceof DomainError) return { ok: false, error: fromDomainError(err) };
      if (isStoreUnreachable(err)) {
        log.warn("handler's store wait failed", { request_id: requestId, endpoint: route.id, ...errorFields(err) });
        const e = new ApiError("data_source_unavailable", "The service's store is unreachable; retry shortly.", {
          "retry-after": "5",
        });
        return { ok: false, error: e };
      }
      log.error("handler failed", { request_id: requestId, endpoint: route.id, ...errorFields(err) });
      return {
        ok: false,
        error: new ApiError(
          "internal_error",
          `An unexpected error occurred. Quote request id ${requestId} to support.`,
        ),
      };
    };
    try {
      const params = parseParams(route, rawParams);
      const query = parseQuery(route, url.searchParams);
      const body = parseJsonBody(route, request, bodyText);
      const result = route.handler({
        params,
        query,
        body,
        caller,
        view,
        engine: deps.engine,
        database,
        requestId,
        now,
      });
      return result instanceof Promise
        ? result.then((r): Outcome => ({ ok: true, result: r }), failed)
        : { ok: true, result };
    } catch (err) {
      return failed(err);
    }
  }

  /**
   * Runs a state-changing handler in a transaction that also takes its quota unit: a failed call writes nothing and
   * uses no quota, and when the quota is spent by concurrent callers the handler's writes are rolled back.
   */
  async function runInTransaction(
    route: RouteDef,
    request: Request,
    url: URL,
    rawParams: Record<string, string>,
    caller: Caller,
    view: ViewSpec,
    requestId: string,
    now: Date,
    bodyText: string,
    quota: Window,
  ) {
    // Assigned inside the transaction callback; a holder keeps TypeScript from narrowing it to the initial value.
    const r: { outcome: Outcome; quotaUsed: number | null; quotaSpent: boolean } = {
      outcome: { ok: false, error: new ApiError("internal_error", "") },
      quotaUsed: null,
      quotaSpent: false,
    };
    try {
      await deps.database.db.transaction(async (tx) => {
        // Both handles run inside this transaction (on the embedded engine a query outside it would wait for it).
        const outcome = (r.outcome = await run(route, request, url, rawParams, caller, view, requestId, now, bodyText, {
          ...deps.database,
          db: tx as unknown as Db,
          sql: clientOf(tx),
        }));
        const status = outcome.ok ? (outcome.result.status ?? route.successStatus ?? 200) : outcome.error.status;
        if (status < 200 || status >= 300) throw ROLLBACK;
        r.quotaUsed = await takeQuota(tx, caller.keyId, quota);
        if (r.quotaUsed === null) {
          r.quotaSpent = true;
          throw ROLLBACK;
        }
      });
    } catch (err) {
      if (err !== ROLLBACK) throw err;
    }
    return r;
  }

  async function handle(request: Request): Promise<Response> {
    const started = performance.now();
    const url = new URL(request.url);
    const served = await serve(request, url, started);
    // HEAD answers exactly like GET (status, headers, metering) without the body.
    const response =
      request.method === "HEAD" ? new Response(null, { status: served.status, headers: served.headers }) : served;
    if (log.enabled("info")) {
      log.info("request", {
        request_id: response.headers.get("x-request-id"),
        method: request.method,
        path: url.pathname,
        status: response.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      });
    }
    return response;
  }

  async function serve(request: Request, url: URL, started: number): Promise<Response> {
    const now = clock();
    const requestId = requestIdFrom(request.headers);
    const path = url.pathname.length > 1 && url.pathname.endsWith("/") ? url.pathname.slice(0, -1) : url.pathname;
    const anonymous: ErrorContext = { env: null, label: "none", now };
    const m = match(request.method === "HEAD" ? "GET" : request.method, path);
    if (m.kind === "not_found")
      return fail("A", new ApiError("not_found", `No route ${path} under /api/v1.`), requestId, anonymous);
    if (m.kind === "method_not_allowed") {
      const error = new ApiError(
        "method_not_allowed",
        `${request.method} is not allowed on ${path}; allowed: ${m.allow.join(", ")}.`,
      );
      return fail(m.route.family, error, requestId, anonymous, { allow: m.allow.join(", ") });
    }
    const route = m.route;
    if (!route.authenticated) {
      const outcome = await run(
        route,
        request,
        url,
        m.params,
        null,
        { env: "demo", entitlement: "demo" },
        requestId,
        now,
        "",
      );
      if (!outcome.ok) return fail(route.family, outcome.error, requestId, anonymous);
      const data = outcome.result.data;
      const status = outcome.result.status ?? 200; // health answers 503 while degraded, for load balancers
      return respond(status, route.family === "B" && route.response ? successBodyNoData(data, now) : data, requestId, {
        "cache-control": "no-store",
      });
    }

    let cfg;
    try {
      const cached = config.get();
      cfg = cached instanceof Promise ? await cached : cached; // no promise on the hot path (cache hit)
    } catch (err) {
      log.error("configuration unavailable", { request_id: requestId, ...errorFields(err) });
      return fail(route.family, storeUnreachable(), requestId, anonymous, { "retry-after": "5" });
    }
    let auth;
    try {
      const judged = authenticate(request.headers, verifier, cfg);
      auth = judged instanceof Promise ? await judged : judged;
    } catch (err) {
      log.error("key lookup failed", { request_id: requestId, ...errorFields(err) });
      return fail(route.family, storeUnreachable(), requestId, anonymous, { "retry-after": "5" });
    }
    const metered = (caller: Caller): Metered => ({
      requestId,
      keyId: caller.keyId,
      accountId: caller.accountId,
      endpointId: route.id,
      latencyMs: performance.now() - started,
      now,
    });
    const windowsOf = (caller: Caller) => ({
      burst: burstWindow(route.family, caller.plan, now),
      quota: quotaWindow(route.family, caller.plan, now),
    });
    if (!auth.ok) {
      if (auth.caller) {
        await settle(
          deps.database.sql,
          metered(auth.caller),
          auth.error.status,
          auth.error.code,
          windowsOf(auth.caller),
        ).catch(logMeterError(requestId));
      }
      const ctx = auth.caller ? errorContext(auth.caller, now) : anonymous;
      return fail(route.family, auth.error, requestId, ctx);
    }
    const caller = auth.caller;
    const view: ViewSpec = {
      env: caller.env === "test" ? "demo" : "live",
      entitlement: caller.env === "test" ? "demo" : caller.plan.dataEntitlement,
    };
    const ctx = errorContext(caller, now);
    const { burst, quota } = windowsOf(caller);
    /** Refused after authentication, before the limits: metered, not counted, and told where its windows stand. */
    const refuse = async (error: ApiError) => {
      try {
        const used = await settle(deps.database.sql, metered(caller), error.status, error.code, { burst, quota });
        return fail(
          route.family,
          error,
          requestId,
          ctx,
          rateLimitHeaders(burst, used.burstUsed, quota, used.quotaUsed, now),
        );
      } catch (err) {
        logMeterError(requestId)(err);
        return fail(route.family, error, requestId, ctx);
      }
    };

    let bodyText = "";
    if (route.body) {
      try {
        bodyText = await readBody(request, route.family === "B" ? caller.plan.bMaxPayloadBytes : 64 * 1024);
      } catch (err) {
        if (err instanceof ApiError) return refuse(err);
        return refuse(new ApiError("invalid_request", "The request body could not be read."));
      }
    }
    if (licensingState(cfg, route.id, caller.env) !== "enabled") {
      return refuse(
        new ApiError(
          "endpoint_pending_licensing",
          `${route.method} ${route.path} is switched off for ${caller.env} keys pending a data-licensing review.`,
        ),
      );
    }

    let outcome: Outcome;
    let limits;
    try {
      if (route.touchesAccountState) {
        // Burst is taken and the quota checked now; the quota unit is taken together with the handler's writes.
        limits = await admission.admit({ m: metered(caller), burst, quota, status: 0, errorCode: null, record: false });
        if (limits.limited === null) {
          const called = await runInTransaction(
            route,
            request,
            url,
            m.params,
            caller,
            view,
            requestId,
            now,
            bodyText,
            quota,
          );
          outcome = called.outcome;
          if (called.quotaUsed !== null) limits.quotaUsed = called.quotaUsed;
          if (called.quotaSpent) limits = { ...limits, limited: "quota", status: 403, quotaUsed: quota.limit };
        } else {
          outcome = { ok: false, error: new ApiError("internal_error", "") }; // replaced below by the limit error
        }
        const status = limits.limited
          ? limits.status
          : outcome.ok
            ? (outcome.result.status ?? route.successStatus ?? 200)
            : outcome.error.status;
        const code =
          limits.limited === "burst"
            ? "rate_limit_exceeded"
            : limits.limited === "quota"
              ? "plan_limit_exceeded"
              : outcome.ok
                ? null
                : outcome.error.code;
        await settle(deps.database.sql, metered(caller), status, code, { burst, quota });
      } else {
        const ran = run(route, request, url, m.params, caller, view, requestId, now, bodyText);
        outcome = ran instanceof Promise ? await ran : ran;
        const status = outcome.ok ? (outcome.result.status ?? route.successStatus ?? 200) : outcome.error.status;
        limits = await admission.admit({
          m: metered(caller),
          burst,
          quota,
          status,
          errorCode: outcome.ok ? null : outcome.error.code,
          record: true,
        });
      }
    } catch (err) {
      log.error("limits or metering failed", {
        request_id: requestId,
        endpoint: route.id,
        ...errorFields((err as { cause?: unknown }).cause ?? err),
      });
      // The admission batcher answers with the contract's error itself (store failure, or its queue full).
      return fail(route.family, err instanceof ApiError ? err : storeUnreachable(), requestId, ctx, {
        "retry-after": "5",
      });
    }

    const headers = rateLimitHeaders(burst, limits.burstUsed, quota, limits.quotaUsed, now);
    touchLastUsed(deps.database, caller.keyId, now);
    if (limits.limited === "burst") {
      const wait = String(secondsLeft(burst, now));
      return fail(
        route.family,
        new ApiError("rate_limit_exceeded", `Per-minute limit of ${burst.limit} requests reached; retry in ${wait} s.`),
        requestId,
        ctx,
        { ...headers, "retry-after": wait },
      );
    }
    if (limits.limited === "quota") {
      const error = new ApiError(
        "plan_limit_exceeded",
        `The ${caller.plan.nameA} plan's ${quota.name === "month" ? "monthly" : "daily"} quota of ${quota.limit} calls is spent.`,
      );
      return fail(route.family, error, requestId, ctx, headers);
    }
    if (!outcome.ok) return fail(route.family, outcome.error, requestId, ctx, headers);
    const { result } = outcome;
    const label = result.asOf ? dataLabel(view, result.asOf, now) : view.env === "demo" ? "demo" : "none";
    const body = successJson(route.family, result.data, {
      path,
      planName: caller.plan.nameA,
      env: caller.env,
      label,
      requestId,
      now,
    });
    return respond(result.status ?? route.successStatus ?? 200, body, requestId, {
      ...headers,
      "cache-control": "no-store",
    });
  }

  return { handle, invalidateConfig: () => config.invalidate() };
}

function errorContext(caller: Caller, now: Date): ErrorContext {
  return { env: caller.env, label: caller.env === "test" ? "demo" : "none", now };
}

function successBodyNoData(data: unknown, now: Date): string {
  return successJson("B", data, { path: "", planName: "", env: "live", label: "none", requestId: "", now });
}

const logMeterError = (requestId: string) => (err: unknown) =>
  log.error("metering failed", { request_id: requestId, ...errorFields(err) });
