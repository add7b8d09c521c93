/** The hand-written layer over the generated operation table: request building, retries, timeouts, results, errors. */
import { ApiError, type ApiErrorCode } from "./errors.js";
import { OPERATIONS, type OperationId } from "./generated/operations.js";
import { isRetryableStatus, MAX_RETRY_AFTER_S, parseRetryAfter, retryDelayMs, sleep } from "./retry.js";
import type { CallOptions, DataLabel, OperationMethods, RateLimit, RawResponse, Result } from "./types.js";
import { CLIENT_VERSION } from "./version.js";
import { openStream, type StreamEvent, type StreamOptions, type StreamParams } from "./stream.js";

export interface ClientOptions {
  /** `svc_test_…`, `svc_live_…` or `svc_sk_live_…`; sent as `Authorization: Bearer`. */
  apiKey: string;
  /** The service's origin, e.g. `https://api.example.com` (`/api/v1` is added; a trailing `/api/v1` is dropped). */
  baseUrl: string;
  /** A fetch implementation; the global one by default. */
  fetch?: typeof fetch;
  /** Per-attempt timeout in milliseconds (default 30 000). */
  timeoutMs?: number;
  /**
   * Retries after the first attempt on 408, 409, 429, 5xx, connection errors and timeouts (default 2); POST and PATCH
   * only with their Idempotency-Key. Waits Retry-After when given (up to 60 s), else backoff of 0.5–8 s with jitter.
   */
  maxRetries?: number;
  /** Sent as `User-Agent` (outside browsers, which set their own): default `options-research-typescript/<version>`. */
  userAgent?: string;
}

/** Query of `getHistoryCsv`: the `getHistory` parameters that shape the series. */
export interface HistoryCsvParams {
  symbol: string;
  from?: string;
  to?: string;
  fields?: string;
}

export type Client = Omit<OperationMethods, "openStream"> & {
  /** `GET /api/v1/history/{symbol}` as CSV text: the disclaimer as a `# ` first line, a header, one row per day. */
  getHistoryCsv: ((params: HistoryCsvParams, call?: CallOptions) => Promise<string>) & {
    withResponse(params: HistoryCsvParams, call?: CallOptions): Promise<{ result: string; response: RawResponse }>;
  };
  /** The live stream as an async iterator; reconnects with Last-Event-ID, ends on abort (see stream.ts). */
  openStream(params: StreamParams, options?: StreamOptions): AsyncGenerator<StreamEvent, void, undefined>;
};

type Row = (typeof OPERATIONS)[OperationId];
type Json = Record<string, unknown>;

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RETRIES = 2;

export function createClient(options: ClientOptions): Client {
  if (!options.apiKey) throw new TypeError("createClient: apiKey is required");
  if (!options.baseUrl) throw new TypeError("createClient: baseUrl is required");
  // the paths carry /api/v1 themselves; a base URL that already ends in it is accepted too
  const base = options.baseUrl.replace(/\/+$/, "").replace(/\/api\/v1$/, "");
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const userAgent = options.userAgent ?? `options-research-typescript/${CLIENT_VERSION}`;
  const client: Record<string, unknown> = {};
  for (const id of Object.keys(OPERATIONS) as OperationId[]) {
    const withResponse = (params?: Json, call?: CallOptions) => request(OPERATIONS[id], params ?? {}, call ?? {});
    client[id] = Object.assign(async (params?: Json, call?: CallOptions) => (await withResponse(params, call)).result, {
      withResponse,
    });
  }
  const csvWithResponse = (params: HistoryCsvParams, call: CallOptions = {}) => {
    const { url } = buildRequest(base, OPERATIONS.getHistory, { ...params, format: "csv" });
    const headers = {
      accept: "text/csv",
      authorization: `Bearer ${options.apiKey}`,
      ...agentHeader(),
      ...call.headers,
    };
    return withRetries(url, { method: "GET", headers }, call, null, (res) => res.text);
  };
  client.getHistoryCsv = Object.assign(
    async (params: HistoryCsvParams, call?: CallOptions) => (await csvWithResponse(params, call)).result,
    { withResponse: csvWithResponse },
  );
  client.openStream = (params: StreamParams, stream?: StreamOptions) =>
    openStream(
      buildRequest(base, OPERATIONS.openStream, params as unknown as Json).url,
      options.apiKey,
      doFetch,
      toError,
      { ...stream, headers: { ...agentHeader(), ...stream?.headers } },
    );
  return client as Client;

  /** Browsers refuse a script-set User-Agent (and would ask a preflight for it): only outside them. */
  function agentHeader(): Record<string, string> {
    return typeof (globalThis as { document?: unknown }).document === "undefined" ? { "user-agent": userAgent } : {};
  }

  function request(row: Row, params: Json, call: CallOptions) {
    const { url, body } = buildRequest(base, row, params);
    const writes = row.method === "POST" || row.method === "PATCH";
    const idempotencyKey = writes && call.idempotencyKey !== false ? (call.idempotencyKey ?? newKey()) : null;
    const headers: Record<string, string> = {
      accept: "application/json",
      ...agentHeader(),
      ...(row.authenticated ? { authorization: `Bearer ${options.apiKey}` } : {}),
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      ...(idempotencyKey !== null ? { "idempotency-key": idempotencyKey } : {}),
      ...call.headers,
    };
    const retryable = !writes || idempotencyKey !== null;
    return withRetries(url, { method: row.method, headers, body }, call, retryable ? null : 0, toResult);
  }

  /** Attempts until a 2xx, a status no retry can fix, or the retries are spent; `retries` null: the configured number. */
  async function withRetries<T>(
    url: string,
    init: RequestInit,
    call: CallOptions,
    retries: number | null,
    read: (res: Raw) => T | Promise<T>,
  ): Promise<{ result: T; response: RawResponse }> {
    const allowed = retries ?? call.maxRetries ?? options.maxRetries ?? DEFAULT_MAX_RETRIES;
    const timeoutMs = call.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    for (let attempt = 0; ; attempt++) {
      let failure: ApiError;
      try {
        const res = await attemptOnce(url, init, timeoutMs, call.signal);
        if (res.status >= 200 && res.status < 300) return { result: await read(res), response: rawOf(res) };
        failure = await toError(res);
        if (!isRetryableStatus(res.status)) throw failure;
      } catch (err) {
        if (!(err instanceof ApiError)) throw err; // the caller's abort, or a bug: not retried
        failure = err;
        if (failure.status !== 0 && !isRetryableStatus(failure.status)) throw failure;
      }
      if (attempt >= allowed) throw failure;
      if (failure.retryAfter !== null && failure.retryAfter > MAX_RETRY_AFTER_S) throw failure;
      await sleep(retryDelayMs(attempt + 1, failure.retryAfter), call.signal);
    }
  }

  /** One HTTP exchange under its own timeout and the caller's signal; connection failures become ApiError status 0. */
  async function attemptOnce(url: string, init: RequestInit, timeoutMs: number, signal?: AbortSignal) {
    signal?.throwIfAborted();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new ApiError(timeoutError(timeoutMs))), timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const res = await doFetch(url, { ...init, signal: controller.signal });
      // the body is read under the same timeout, so a stalled answer cannot hang the call
      const text = await res.text();
      return { status: res.status, headers: res.headers, text };
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (controller.signal.aborted) throw controller.signal.reason;
      throw new ApiError({
        status: 0,
        code: "connection_error",
        message: `No answer from ${new URL(url).origin}: ${err instanceof Error ? err.message : String(err)}`,
        cause: err,
      });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }
}

function timeoutError(ms: number) {
  return { status: 0, code: "timeout" as const, message: `No complete answer within ${ms} ms.` };
}

function newKey(): string {
  return globalThis.crypto.randomUUID();
}

/** Path fields fill the template, query fields the query string, the rest is the JSON body. */
export function buildRequest(base: string, row: Row, params: Json): { url: string; body?: string } {
  const known = new Set<string>([...row.pathParams, ...row.queryParams, ...row.bodyFields]);
  for (const k of Object.keys(params))
    if (!known.has(k) && params[k] !== undefined) throw new TypeError(`unknown parameter '${k}'`);
  let path: string = row.path;
  for (const name of row.pathParams) {
    const v = params[name];
    if (v === undefined || v === null || v === "") throw new TypeError(`parameter '${name}' is required`);
    path = path.replace(`{${name}}`, encodeURIComponent(String(v)));
  }
  const query = new URLSearchParams();
  for (const name of row.queryParams) {
    const v = params[name];
    if (v === undefined || v === null) continue;
    query.set(name, Array.isArray(v) ? v.join(",") : String(v));
  }
  const qs = query.toString();
  let body: string | undefined;
  if (row.hasBody) {
    const fields: Json = {};
    for (const name of row.bodyFields) if (params[name] !== undefined) fields[name] = params[name];
    body = JSON.stringify(fields);
  }
  return { url: `${base}${path}${qs ? `?${qs}` : ""}`, body };
}

type Raw = { status: number; headers: Headers; text: string };

const rawOf = (res: Raw): RawResponse => ({
  status: res.status,
  headers: res.headers,
  requestId: res.headers.get("x-request-id"),
});

const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

function parseJson(text: string): Json | null {
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
}

function num(v: string | null): number | null {
  return v !== null && /^\d+$/.test(v) ? Number(v) : null;
}

function rateLimitOf(h: Headers): RateLimit | null {
  if (!h.has("x-ratelimit-limit") && !h.has("ratelimit")) return null;
  return {
    limit: num(h.get("x-ratelimit-limit")),
    remaining: num(h.get("x-ratelimit-remaining")),
    reset: num(h.get("x-ratelimit-reset")),
    header: h.get("ratelimit"),
    policy: h.get("ratelimit-policy"),
  };
}

/** Family A keeps the labels in `meta`; family B beside the data. Both reach the caller the same way. */
async function toResult(res: Raw): Promise<Result<unknown>> {
  const json = parseJson(res.text);
  const meta = json && isObject(json.meta) ? json.meta : null;
  const requestId = res.headers.get("x-request-id") ?? (typeof meta?.request_id === "string" ? meta.request_id : "");
  if (!json || !("data" in json) || typeof json.disclaimer !== "string")
    throw new ApiError({
      status: res.status,
      code: "unexpected_response",
      message: `The answer (${res.status}) is not the API's envelope.`,
      requestId,
    });
  return {
    data: json.data,
    disclaimer: json.disclaimer,
    dataLabel: (meta ? meta.data_freshness : json.dataLabel) as DataLabel,
    isMock: Boolean(meta ? meta.is_mock : json.isMockData),
    requestId,
    rateLimit: rateLimitOf(res.headers),
    status: res.status,
  };
}

async function toError(res: Raw): Promise<ApiError> {
  const json = parseJson(res.text);
  const error = json && isObject(json.error) ? json.error : null;
  const retryAfter = parseRetryAfter(res.headers.get("retry-after"));
  const requestId = res.headers.get("x-request-id");
  if (error && typeof error.code === "string" && typeof error.message === "string")
    return new ApiError({
      status: res.status,
      code: error.code as ApiErrorCode,
      message: error.message,
      requestId,
      retryAfter,
    });
  return new ApiError({
    status: res.status,
    code: "unexpected_response",
    message: `HTTP ${res.status} without the API's error body.`,
    requestId,
    retryAfter,
  });
}
