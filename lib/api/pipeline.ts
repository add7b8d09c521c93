/**
 * The one pipeline every /api/v1 request goes through (docs/api-contract.md §1–§6). `serve` reads top to bottom:
 * resolve route → authenticate → read body → licensing → idempotency (POST, PATCH) → execute → admit and meter → respond.
 * The handler runs before the limits statement so that limits and metering share one database round trip; handlers
 * that touch account state run only after their call is admitted. A stage answers synchronously when it can answer from
 * memory (cached key, configuration and payload), so a cache hit waits only for its admission batch.
 */
import type { Database, Db } from "../db/client";
import { clientOf } from "../db/tx";
import type { AnalyticsEngine, ViewSpec } from "../engine/types";
import { dataLabel } from "../engine/types";
import { isStoreUnreachable } from "../db/deadline";
import { appEnv } from "../env";
import { errorFields, log } from "../log";
import { ConfigCache, type GatewayConfig, licensingState } from "./config-cache";
import { authenticate, KeyVerifier, type Caller } from "./credentials";
import {
  errorBody,
  successBody,
  successJson,
  successText,
  type ErrorContext,
  type ServedMeta,
  type SuccessBody,
} from "./envelope";
import { ApiError, ERROR_STATUS, type ErrorAnswerSpec, fromDomainError, fromEngineError } from "./errors";
import { EngineError } from "../engine/errors";
import { DomainError } from "../domain/errors";
import { AdmissionBatcher, type BatchOptions } from "./admission";
import { type LimitOutcome, type Metered, settle, takeQuota } from "./limits";
import { touchLastUsed } from "./last-used";
import {
  type Claim,
  claim,
  IDEMPOTENT_METHODS,
  idempotencyKeyOf,
  releaseClaim,
  REPLAYED_HEADER,
  requestDigest,
  settleClaim,
  type StoredAnswer,
} from "./idempotency";
import { parseJsonBody, parseParams, parseQuery, readBody } from "./parse-input";
import { loggedPath } from "./logged-path";
import { BoundedMemo } from "../util/bounded-memo";
import { rateLimitHeaders } from "./rate-headers";
import { requestIdFrom } from "./request-id";
import type { HandlerResult, RouteDef, StreamAnswer } from "./route";
import { createRouter } from "./router";
import { burstWindow, quotaWindow, secondsLeft, type Window } from "../limits/windows";

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

/** One request on its way through the stages: the route it resolved to, and what each stage learns about it. */
interface Call {
  readonly request: Request;
  readonly url: URL;
  /** The request path without a trailing slash. */
  readonly path: string;
  readonly requestId: string;
  readonly now: Date;
  /** performance.now() at arrival, for the metered latency. */
  readonly started: number;
  readonly route: RouteDef;
  /** Path parameters as matched, before their schema parses them. */
  readonly rawParams: Record<string, string>;
  /** What an error body says about data: the caller's environment once the key is known. */
  errorContext: ErrorContext;
  caller: Caller | null;
  view: ViewSpec;
  bodyText: string;
  config: GatewayConfig | null;
  burst: Window | null;
  quota: Window | null;
}

/** A call whose key was accepted: its caller, configuration and limit windows are known. */
interface KeyedCall extends Call {
  caller: Caller;
  config: GatewayConfig;
  burst: Window;
  quota: Window;
}

type Outcome = { ok: true; result: HandlerResult } | { ok: false; error: ApiError };

/**
 * An answer before its rate-limit headers, decided before admission so that its size is metered with the call. A success
 * body stays in parts until it is sent (textOf): its size is known without the joined text, which would otherwise be
 * held, and copied by the GC, while the call waits for its admission batch.
 */
interface Answer {
  status: number;
  body: string | SuccessBody;
  /** The body's size in UTF-8 bytes. */
  bytes: number;
  headers: Record<string, string> | undefined;
}

const JSON_TYPE = "application/json; charset=utf-8";
const DEMO_VIEW: ViewSpec = { env: "demo", entitlement: "demo" };
const ROLLBACK = new Error("rollback"); // thrown inside a transaction to undo a call that did not succeed
/** Limits and metering cannot be enforced without the database: refuse rather than serve unmetered (fail closed). */
const storeUnreachable = () =>
  new ApiError("data_source_unavailable", "The service's store is unreachable; retry shortly.");
const RETRY_SOON = { "retry-after": "5" };

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

  /** The stages in order; each returns a Response when it ends the call, and a promise only when it must wait. */
  async function serve(request: Request, url: URL, started: number): Promise<Response> {
    const call = resolveRoute(request, url, started);
    if (call instanceof Response) return call;
    if (!call.route.authenticated) return serveWithoutKey(call);

    const authenticated = authenticateCall(call);
    const keyed = authenticated instanceof Promise ? await authenticated : authenticated;
    if (keyed instanceof Response) return keyed;

    if (keyed.route.body) {
      const unread = await readCallBody(keyed);
      if (unread) return unread;
    }

    const unlicensed = checkLicensing(keyed);
    if (unlicensed) return unlicensed;

    return IDEMPOTENT_METHODS.has(keyed.route.method) ? serveOnce(keyed) : executeAndRespond(keyed);
  }

  /** execute → admit and meter → respond. */
  async function executeAndRespond(keyed: KeyedCall): Promise<Response> {
    if (keyed.route.touchesAccountState) {
      const decided = await admitThenExecute(keyed);
      return decided instanceof Response ? decided : respond(keyed, decided.answer, decided.limits);
    }

    const executed = execute(keyed);
    const outcome = executed instanceof Promise ? await executed : executed;
    const answer = answerOf(keyed, outcome);

    let limits: LimitOutcome;
    try {
      limits = await admitAndMeter(keyed, outcome, answer);
    } catch (err) {
      if (outcome.ok) outcome.result.stream?.cancel();
      return limitsFailed(keyed, err);
    }
    const stream = outcome.ok ? outcome.result.stream : undefined;
    if (stream && !limits.limited && keyed.request.method !== "HEAD") return openStream(keyed, stream, limits);
    stream?.cancel();
    return respond(keyed, limits.limited ? answerOf(keyed, outcome, limits.limited) : answer, limits);
  }

  // ------------------------------------------------------------------------------------------------ resolve route

  /** Request id, clock and route; an unknown path (404) or method (405) is answered here. */
  function resolveRoute(request: Request, url: URL, started: number): Call | Response {
    const now = clock();
    const requestId = requestIdFrom(request.headers);
    const path = url.pathname.length > 1 && url.pathname.endsWith("/") ? url.pathname.slice(0, -1) : url.pathname;
    const m = match(request.method === "HEAD" ? "GET" : request.method, path);
    if (m.kind === "route") {
      return {
        request,
        url,
        path,
        requestId,
        now,
        started,
        route: m.route,
        rawParams: m.params,
        errorContext: anonymous(now),
        caller: null,
        view: DEMO_VIEW,
        bodyText: "",
        config: null, // the fields the stages fill in exist from the start: one object shape for every call
        burst: null,
        quota: null,
      };
    }
    if (m.kind === "not_found") {
      const error = new ApiError("not_found", `No route ${path} under /api/v1.`);
      return reply(error.status, errorBody("A", error, anonymous(now)), requestId);
    }
    const allow = m.allow.join(", ");
    const error = new ApiError("method_not_allowed", `${request.method} is not allowed on ${path}; allowed: ${allow}.`);
    return reply(error.status, errorBody(m.route.family, error, anonymous(now)), requestId, { allow });
  }

  /** Health and the reference: no key, no limits, never metered. */
  async function serveWithoutKey(call: Call): Promise<Response> {
    const executed = execute(call);
    const outcome = executed instanceof Promise ? await executed : executed;
    if (!outcome.ok) return fail(call, outcome.error);
    const { route } = call;
    const data = outcome.result.data;
    const meta: ServedMeta = { path: "", planName: "", env: "live", label: "none", requestId: "", now: call.now };
    const body = route.envelope === "none" ? data : successJson(route.envelope, data, meta);
    return reply(outcome.result.status ?? route.successStatus ?? 200, body, call.requestId, {
      "cache-control": "no-store",
    });
  }

  // ------------------------------------------------------------------------------------------------- authenticate

  /** Configuration and key; a refused key that belongs to a caller is metered. Sets the caller, view and windows. */
  function authenticateCall(call: Call): KeyedCall | Response | Promise<KeyedCall | Response> {
    let cached: GatewayConfig | Promise<GatewayConfig>;
    try {
      cached = config.get();
    } catch (err) {
      return configUnavailable(call, err);
    }
    if (cached instanceof Promise)
      return cached.then(
        (cfg) => judgeKey(call, cfg),
        (err) => configUnavailable(call, err),
      );
    return judgeKey(call, cached);
  }

  function configUnavailable(call: Call, err: unknown): Response {
    log.error("configuration unavailable", { request_id: call.requestId, ...errorFields(err) });
    return fail(call, storeUnreachable(), RETRY_SOON);
  }

  function judgeKey(call: Call, cfg: GatewayConfig): KeyedCall | Response | Promise<KeyedCall | Response> {
    let judged: ReturnType<typeof authenticate>;
    try {
      judged = authenticate(call.request.headers, verifier, cfg);
    } catch (err) {
      return keyLookupFailed(call, err);
    }
    if (judged instanceof Promise)
      return judged.then(
        (auth) => admitKey(call, cfg, auth),
        (err) => keyLookupFailed(call, err),
      );
    return admitKey(call, cfg, judged);
  }

  function keyLookupFailed(call: Call, err: unknown): Response {
    log.error("key lookup failed", { request_id: call.requestId, ...errorFields(err) });
    return fail(call, storeUnreachable(), RETRY_SOON);
  }

  function admitKey(
    call: Call,
    cfg: GatewayConfig,
    auth: Awaited<ReturnType<typeof authenticate>>,
  ): KeyedCall | Response | Promise<Response> {
    if (!auth.ok) {
      if (!auth.caller) return fail(call, auth.error);
      const refused = withCaller(call, cfg, auth.caller);
      const answer = errorAnswer(refused, auth.error);
      return settle(deps.database.sql, metered(refused, answer), auth.error.status, auth.error.code, refused, null)
        .catch(logMeterError(call.requestId))
        .then(() => send(refused, answer));
    }
    return withCaller(call, cfg, auth.caller);
  }

  /** Fills in what the caller decides: the market view, the error context and the two limit windows. */
  function withCaller(call: Call, cfg: GatewayConfig, caller: Caller): KeyedCall {
    const keyed = call as KeyedCall;
    keyed.caller = caller;
    keyed.config = cfg;
    keyed.view = caller.env === "test" ? DEMO_VIEW : { env: "live", entitlement: caller.plan.dataEntitlement };
    keyed.errorContext = { env: caller.env, label: caller.env === "test" ? "demo" : "none", now: call.now };
    keyed.burst = burstWindow(call.route.family, caller.plan, call.now);
    keyed.quota = quotaWindow(call.route.family, caller.plan, call.now);
    return keyed;
  }

  // ---------------------------------------------------------------------------------------------------- read body

  /** Reads a body route's body within the plan's bound; a body too large or unreadable is refused. */
  async function readCallBody(call: KeyedCall): Promise<Response | null> {
    try {
      call.bodyText = await readBody(
        call.request,
        call.route.family === "B" ? call.caller.plan.bMaxPayloadBytes : 64 * 1024,
      );
      return null;
    } catch (err) {
      return refuse(
        call,
        err instanceof ApiError ? err : new ApiError("invalid_request", "The request body could not be read."),
      );
    }
  }

  // ---------------------------------------------------------------------------------------------------- licensing

  /** An endpoint pending a data-licensing review for the key's environment is refused. */
  function checkLicensing(call: KeyedCall): Promise<Response> | null {
    if (licensingState(call.config, call.route.id, call.caller.env) === "enabled") return null;
    const { route, caller } = call;
    return refuse(
      call,
      new ApiError(
        "endpoint_pending_licensing",
        `${route.method} ${route.path} is switched off for ${caller.env} keys pending a data-licensing review.`,
      ),
    );
  }

  // ------------------------------------------------------------------------------------------------- idempotency

  /**
   * POST and PATCH with an Idempotency-Key: the first call for (account, key) runs and its answer is kept; a retry of the
   * same request is answered the kept answer, another request with the key 422, a retry during the first call 409.
   */
  async function serveOnce(call: KeyedCall): Promise<Response> {
    const key = idempotencyKeyOf(call.request.headers);
    if (key === null) return executeAndRespond(call);
    if (key instanceof ApiError) return refuse(call, key);
    const { sql } = deps.database;
    const account = call.caller.accountId;
    let claimed: Claim;
    try {
      claimed = await claim(sql, account, key, requestDigest(call.route.method, call.path, call.bodyText), call.now);
    } catch (err) {
      return limitsFailed(call, err);
    }
    if (claimed.kind === "reused")
      return refuse(
        call,
        new ApiError("idempotency_key_reused", "This Idempotency-Key was used with another request."),
      );
    if (claimed.kind === "in_use")
      return refuse(
        call,
        new ApiError("idempotency_key_in_use", "A request with this Idempotency-Key is still running; retry shortly.", {
          "retry-after": "1",
        }),
      );
    if (claimed.kind === "replay") return replay(call, claimed.answer);
    let response: Response;
    try {
      response = await executeAndRespond(call);
    } catch (err) {
      await releaseClaim(sql, account, key).catch(logMeterError(call.requestId));
      throw err;
    }
    return settleClaim(sql, account, key, response);
  }

  /** A kept answer, byte for byte: it takes a burst unit like any request, but no quota and no usage event. */
  async function replay(call: KeyedCall, answer: StoredAnswer): Promise<Response> {
    let limits: LimitOutcome;
    try {
      limits = await admission.admit({
        m: metered(call),
        burst: call.burst,
        quota: call.quota,
        status: 0, // not a 2xx: takes no quota unit
        errorCode: null,
        record: false,
      });
    } catch (err) {
      return limitsFailed(call, err);
    }
    if (limits.limited === "burst") {
      const refused = errorAnswer(call, limitRefusal(call, "burst"));
      await settle(deps.database.sql, metered(call, refused), 429, "rate_limit_exceeded", call, limits).catch(
        logMeterError(call.requestId),
      );
      return respond(call, refused, limits);
    }
    log.info("idempotent replay", { request_id: call.requestId, replayed_request_id: answer.headers["x-request-id"] });
    const headers = rateLimitHeaders(call.burst, limits.burstUsed, call.quota, limits.quotaUsed, call.now, call.caller);
    return new Response(answer.body, {
      status: answer.status,
      headers: { ...answer.headers, ...headers, [REPLAYED_HEADER]: "true" },
    });
  }

  // ------------------------------------------------------------------------------------------------------ execute

  /** Parses the inputs and calls the handler; synchronous when the handler answers from memory. */
  function execute(call: Call, database: Database = deps.database): Outcome | Promise<Outcome> {
    const { route } = call;
    try {
      const result = route.handler({
        params: parseParams(route, call.rawParams),
        query: parseQuery(route, call.url.searchParams),
        body: parseJsonBody(route, call.request, call.bodyText),
        caller: call.caller,
        view: call.view,
        engine: deps.engine,
        database,
        requestId: call.requestId,
        now: call.now,
        accept: call.request.headers.get("accept"),
        headers: call.request.headers,
        recheck: () => recheck(call),
      });
      return result instanceof Promise
        ? result.then(
            (r): Outcome => ({ ok: true, result: r }),
            (err) => failed(call, err),
          )
        : { ok: true, result };
    } catch (err) {
      return failed(call, err);
    }
  }

  /** A handler's failure as the API's error: its own, a domain rule's, or an unexpected one (logged, not shown). */
  function failed(call: Call, err: unknown): Outcome {
    if (err instanceof ApiError) return { ok: false, error: err };
    if (err instanceof DomainError) return { ok: false, error: fromDomainError(err) };
    if (err instanceof EngineError) return { ok: false, error: fromEngineError(err) };
    if (isStoreUnreachable(err)) {
      log.warn("handler's store wait failed", {
        request_id: call.requestId,
        endpoint: call.route.id,
        ...errorFields(err),
      });
      return { ok: false, error: new ApiError("data_source_unavailable", storeUnreachable().message, RETRY_SOON) };
    }
    log.error("handler failed", { request_id: call.requestId, endpoint: call.route.id, ...errorFields(err) });
    return {
      ok: false,
      error: new ApiError(
        "internal_error",
        `An unexpected error occurred. Quote request id ${call.requestId} to support.`,
      ),
    };
  }

  /** The key and licensing checks again, as a new call with this request's credentials would meet them (streams). */
  async function recheck(call: Call): Promise<Caller | ApiError> {
    const cfg = await config.get();
    const auth = await authenticate(call.request.headers, verifier, cfg);
    if (!auth.ok) return auth.error;
    if (licensingState(cfg, call.route.id, auth.caller.env) !== "enabled")
      return new ApiError(
        "endpoint_pending_licensing",
        `${call.route.id} is switched off pending a data-licensing review.`,
      );
    return auth.caller;
  }

  // ----------------------------------------------------------------------------------------------- admit and meter

  /** The call's burst and quota units and its usage event, decided in the next admission batch. */
  function admitAndMeter(call: KeyedCall, outcome: Outcome, answer: Answer): Promise<LimitOutcome> {
    return admission.admit({
      m: metered(call, answer),
      burst: call.burst,
      quota: call.quota,
      status: statusOf(call, outcome),
      errorCode: outcome.ok ? null : outcome.error.code,
      record: true,
      refusedBytes: { burst: refusalBytes(call, "burst"), quota: refusalBytes(call, "quota") },
    });
  }

  /**
   * For handlers that touch account state: burst is taken and the quota checked first; the handler then runs in a
   * transaction that also takes its quota unit, and the call is metered after it.
   */
  async function admitThenExecute(call: KeyedCall): Promise<{ answer: Answer; limits: LimitOutcome } | Response> {
    try {
      let limits = await admission.admit({
        m: metered(call),
        burst: call.burst,
        quota: call.quota,
        status: 0,
        errorCode: null,
        record: false,
      });
      let outcome: Outcome = { ok: false, error: new ApiError("internal_error", "") }; // replaced by the limit error
      if (limits.limited === null) {
        const ran = await executeInTransaction(call);
        outcome = ran.outcome;
        if (ran.quotaUsed !== null) limits.quotaUsed = ran.quotaUsed;
        if (ran.quotaSpent) limits = { ...limits, limited: "quota", status: 403, quotaUsed: call.quota.limit };
      }
      const status = limits.limited ? limits.status : statusOf(call, outcome);
      const code =
        limits.limited === "burst"
          ? "rate_limit_exceeded"
          : limits.limited === "quota"
            ? "plan_limit_exceeded"
            : outcome.ok
              ? null
              : outcome.error.code;
      const answer = answerOf(call, outcome, limits.limited);
      await settle(deps.database.sql, metered(call, answer), status, code, call, limits);
      return { answer, limits };
    } catch (err) {
      return limitsFailed(call, err);
    }
  }

  /**
   * Runs a state-changing handler in a transaction that also takes its quota unit: a failed call writes nothing and
   * uses no quota, and when the quota is spent by concurrent callers the handler's writes are rolled back.
   */
  async function executeInTransaction(call: KeyedCall) {
    // Assigned inside the transaction callback; a holder keeps TypeScript from narrowing it to the initial value.
    const r: { outcome: Outcome; quotaUsed: number | null; quotaSpent: boolean } = {
      outcome: { ok: false, error: new ApiError("internal_error", "") },
      quotaUsed: null,
      quotaSpent: false,
    };
    try {
      await deps.database.db.transaction(async (tx) => {
        // Both handles run inside this transaction (on the embedded engine a query outside it would wait for it).
        r.outcome = await execute(call, { ...deps.database, db: tx as unknown as Db, sql: clientOf(tx) });
        const status = statusOf(call, r.outcome);
        if (status < 200 || status >= 300) throw ROLLBACK;
        r.quotaUsed = await takeQuota(tx, call.caller.keyId, call.quota);
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

  /** The store that enforces the limits failed: refuse (fail closed) and say when to retry. */
  function limitsFailed(call: KeyedCall, err: unknown): Response {
    log.error("limits or metering failed", {
      request_id: call.requestId,
      endpoint: call.route.id,
      ...errorFields((err as { cause?: unknown }).cause ?? err),
    });
    // The admission batcher answers with the contract's error itself (store failure, or its queue full).
    return fail(call, err instanceof ApiError ? err : storeUnreachable(), RETRY_SOON);
  }

  // ------------------------------------------------------------------------------------------------------ respond

  /** A streamed answer (routes with `streams`), opened once the call is admitted, with the windows' headers. */
  function openStream(call: KeyedCall, stream: StreamAnswer, limits: LimitOutcome): Response {
    const { caller, burst, quota, now } = call;
    const headers = rateLimitHeaders(burst, limits.burstUsed, quota, limits.quotaUsed, now, caller);
    touchLastUsed(deps.database, caller.keyId, now);
    return stream.open({ ...headers, "x-request-id": call.requestId }, limits.quotaUsed);
  }

  /** The answer with the windows' rate-limit headers. */
  function respond(call: KeyedCall, answer: Answer, limits: LimitOutcome): Response {
    const { caller, burst, quota, now } = call;
    const headers = rateLimitHeaders(burst, limits.burstUsed, quota, limits.quotaUsed, now, caller);
    touchLastUsed(deps.database, caller.keyId, now);
    return reply(
      answer.status,
      textOf(answer),
      call.requestId,
      answer.headers ? { ...answer.headers, ...headers } : headers,
    );
  }

  /**
   * The limit error (when `limited`), the handler's error, or the data in the route's envelope, without the windows'
   * headers.
   */
  function answerOf(call: KeyedCall, outcome: Outcome, limited: LimitOutcome["limited"] = null): Answer {
    const { caller, now } = call;
    if (limited) {
      return errorAnswer(call, limitRefusal(call, limited));
    }
    if (!outcome.ok) return errorAnswer(call, outcome.error);
    const { result } = outcome;
    if (result.text) {
      return {
        status: statusOf(call, outcome),
        body: result.text.body,
        bytes: Buffer.byteLength(result.text.body),
        headers: { "cache-control": "no-store", "content-type": result.text.contentType },
      };
    }
    const label = result.asOf ? dataLabel(call.view, result.asOf, now) : call.view.env === "demo" ? "demo" : "none";
    const envelope = call.route.envelope === "none" ? null : call.route.envelope;
    const headers = { "cache-control": "no-store" };
    if (envelope === null) {
      const text = result.json ?? (typeof result.data === "string" ? result.data : JSON.stringify(result.data));
      return { status: statusOf(call, outcome), body: text, bytes: Buffer.byteLength(text), headers };
    }
    const body = successBody(
      envelope,
      result.data,
      {
        path: call.path,
        planName: caller.plan.nameA,
        env: caller.env,
        label,
        requestId: call.requestId,
        now,
      },
      result.json,
    );
    return { status: statusOf(call, outcome), body, bytes: body.bytes, headers };
  }

  /** The answer's error when a window refuses the call (a plain object: see ErrorAnswerSpec). */
  function limitRefusal(call: KeyedCall, limited: "burst" | "quota"): ErrorAnswerSpec {
    const { caller, burst, quota, now } = call;
    if (limited === "burst") {
      const wait = String(secondsLeft(burst, now));
      return {
        code: "rate_limit_exceeded",
        status: ERROR_STATUS.rate_limit_exceeded,
        message: `Per-minute limit of ${burst.limit} requests reached; retry in ${wait} s.`,
        headers: { "retry-after": wait },
      };
    }
    const window = quota.name === "month" ? "monthly" : "daily";
    return {
      code: "plan_limit_exceeded",
      status: ERROR_STATUS.plan_limit_exceeded,
      message: `The ${caller.plan.nameA} plan's ${window} quota of ${quota.limit} calls is spent.`,
      headers: {},
    };
  }

  /**
   * The size of the answer a window's refusal would be, asked for every metered call (admission decides later whether
   * it is sent). The body depends only on the family, the message and the error context's environment and label, plus
   * the context's timestamp in family B, which is 24 characters for every year from 0 to 9999: so sizes are kept per
   * family, environment, label and message, and rendered afresh outside those years.
   */
  function refusalBytes(call: KeyedCall, limited: "burst" | "quota"): number {
    if (call.request.method === "HEAD") return 0;
    const refusal = limitRefusal(call, limited);
    const render = () => bytesOf(call, errorAnswer(call, refusal, undefined, true));
    const { env, label, now } = call.errorContext;
    const year = now.getUTCFullYear();
    if (year < 0 || year > 9999) return render();
    return refusalSizes.get(`${call.route.family}|${env}|${label}|${refusal.message}`, render);
  }

  // ------------------------------------------------------------------------------------------------------ helpers

  /** Refused after authentication, before the limits: metered, not counted, and told where its windows stand. */
  async function refuse(call: KeyedCall, error: ApiError): Promise<Response> {
    const answer = errorAnswer(call, error);
    try {
      const used = await settle(deps.database.sql, metered(call, answer), error.status, error.code, call, "counters");
      const headers = rateLimitHeaders(call.burst, used.burstUsed, call.quota, used.quotaUsed, call.now, call.caller);
      return reply(answer.status, textOf(answer), call.requestId, { ...answer.headers, ...headers });
    } catch (err) {
      logMeterError(call.requestId)(err);
      return send(call, answer);
    }
  }

  /** What the usage event keeps of a call; `answer` is what it will be answered (its size is metered). */
  function metered(call: KeyedCall, answer?: Answer): Metered {
    return {
      requestId: call.requestId,
      keyId: call.caller.keyId,
      accountId: call.caller.accountId,
      endpointId: call.route.id,
      path: loggedPath(call.url),
      bytes: answer ? bytesOf(call, answer) : null,
      latencyMs: performance.now() - call.started,
      now: call.now,
    };
  }

  /**
   * An error answer in the route family's shape. A code the route does not declare is a bug in the route table.
   * `probe`: rendered only for its size (an answer the call may not get), so an undeclared code is not logged.
   */
  function errorAnswer(call: Call, error: ErrorAnswerSpec, extra?: Record<string, string>, probe = false): Answer {
    if (!probe && !call.route.errors.includes(error.code))
      log.error("undeclared error code", { request_id: call.requestId, endpoint: call.route.id, code: error.code });
    const headers = extra ? { ...error.headers, ...extra } : error.headers;
    const text = JSON.stringify(errorBody(call.route.family, error, call.errorContext));
    return { status: error.status, body: text, bytes: Buffer.byteLength(text), headers };
  }

  function fail(call: Call, error: ApiError, extra?: Record<string, string>): Response {
    return send(call, errorAnswer(call, error, extra));
  }

  function send(call: Call, answer: Answer): Response {
    return reply(answer.status, textOf(answer), call.requestId, answer.headers);
  }

  return { handle, invalidateConfig: () => config.invalidate() };
}

function reply(status: number, body: unknown, requestId: string, extra?: Record<string, string>): Response {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return new Response(text, { status, headers: { "content-type": JSON_TYPE, ...extra, "x-request-id": requestId } });
}

const textOf = (answer: Answer) => (typeof answer.body === "string" ? answer.body : successText(answer.body));

/** The body's size in bytes as sent: none for HEAD, which answers like GET without the body. */
function bytesOf(call: Call, answer: Answer): number {
  return call.request.method === "HEAD" ? 0 : answer.bytes;
}

function statusOf(call: Call, outcome: Outcome): number {
  return outcome.ok ? (outcome.result.status ?? call.route.successStatus ?? 200) : outcome.error.status;
}

/** Sizes of refusal answers (refusalBytes): a few dozen distinct messages per plan in use. */
const refusalSizes = new BoundedMemo<string, number>(4096);

const anonymous = (now: Date): ErrorContext => ({ env: null, label: "none", now });

const logMeterError = (requestId: string) => (err: unknown) =>
  log.error("metering failed", { request_id: requestId, ...errorFields(err) });
