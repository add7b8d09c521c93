/**
 * The live stream (`GET /api/v1/stream`, Server-Sent Events) as an async iterator: `for await (const ev of
 * client.openStream({ events: ["flow.block"] }))`. It reconnects after a dropped or silent connection with
 * `Last-Event-ID`, so no event is missed or seen twice; the service's final `error` event (revoked key, plan, quota) ends
 * it with an ApiError. Aborting the signal (or leaving the loop) closes the connection and ends the iteration.
 */
import { ApiError, type ApiErrorCode } from "./errors.js";
import type { operations } from "./generated/schema.js";
import { isRetryableStatus, retryDelayMs, sleep } from "./retry.js";

/** One event: `id` (send back as Last-Event-ID), `type`, `symbol`, `timestamp`, `data`. */
export type StreamEvent = operations["openStream"]["responses"][200]["content"]["text/event-stream"];

/** Thresholds are numbers, or their text as a query carries it (the reference types query values as text). */
export interface StreamParams {
  events: string[] | string;
  symbols?: string[] | string;
  iv_rank_above?: number | string;
  iv_rank_below?: number | string;
  iv_change_above?: number | string;
  min_premium?: number | string;
}

export interface StreamOptions {
  /** Ends the stream: the connection is closed and the loop ends without an error. */
  signal?: AbortSignal;
  /** Resume after this event (its `id`), e.g. one stored before the process restarted. */
  lastEventId?: string;
  /** Consecutive failed reconnection attempts before giving up (default 5). */
  maxReconnects?: number;
  /**
   * Milliseconds without any byte while one is awaited (the server sends a `: heartbeat` every 15 s) before the
   * connection counts as dead and is reopened with Last-Event-ID; it also bounds the wait for the answer (default 45000).
   */
  readTimeoutMs?: number;
  /** Extra request headers. */
  headers?: Record<string, string>;
}

/** Status of the codes an `error` event can carry (the event itself has no HTTP status). */
const EVENT_STATUS: Record<string, number> = {
  invalid_api_key: 401,
  inactive_key: 403,
  subscription_required: 403,
  plan_limit_exceeded: 403,
  endpoint_pending_licensing: 403,
  data_source_unavailable: 503,
  slow_consumer: 429,
};
/** Error events after which the stream reconnects with Last-Event-ID: a restart, or a reader that fell behind. */
const RECONNECT_CODES = new Set(["data_source_unavailable", "slow_consumer"]);
/** Three missed heartbeats (the server sends one every 15 s). */
export const DEFAULT_READ_TIMEOUT_MS = 45_000;

/** A data frame, or a comment (`: heartbeat`), which carries nothing but shows the connection is alive. */
interface Frame {
  comment: boolean;
  id: string | null;
  event: string;
  data: string;
}

function parseBlock(block: string): Frame | null {
  const f: Frame = { comment: false, id: null, event: "message", data: "" };
  let hasData = false;
  let comment = false;
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) comment = true;
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "id") f.id = value;
    else if (field === "event") f.event = value;
    else if (field === "data") {
      f.data = hasData ? `${f.data}\n${value}` : value;
      hasData = true;
    }
  }
  if (hasData) return f;
  return comment ? { ...f, comment: true } : null;
}

/**
 * Splits a text/event-stream body into frames. `onBytes` runs on every chunk received; a read ends with `signal`'s
 * reason when it aborts (even with a fetch that ignores the signal), and leaving cancels the body.
 */
async function* frames(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  onBytes: () => void,
): AsyncGenerator<Frame> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => {}); // observed by the race below; never an unhandled rejection
  let buf = "";
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done) return;
      onBytes();
      buf += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
      for (let cut = buf.indexOf("\n\n"); cut >= 0; cut = buf.indexOf("\n\n")) {
        const f = parseBlock(buf.slice(0, cut));
        buf = buf.slice(cut + 2);
        if (f) yield f;
      }
    }
  } finally {
    reader.cancel().catch(() => {}); // closes the connection
  }
}

interface StreamRequest {
  url: string;
  apiKey: string;
  doFetch: typeof fetch;
  toError: (res: { status: number; headers: Headers; text: string }) => Promise<ApiError>;
}
/** What one connection left behind: the last event id, and the count of failures since a connection delivered. */
interface StreamState {
  last: string | null;
  failures: number;
}
/** How one connection ended: a failure to reconnect after, or (`fatal`) one that ends the stream. */
interface Ending {
  failure: ApiError;
  fatal: boolean;
}

/**
 * One connection: yields its events and returns how it ended. A connection that delivers (an event or a heartbeat)
 * resets the failure count; one that ends, breaks or stays silent for `readTimeoutMs` is a failure. The silence is
 * timed only while a byte is awaited, not while the caller handles an event.
 */
async function* connection(
  req: StreamRequest,
  options: StreamOptions,
  state: StreamState,
): AsyncGenerator<StreamEvent, Ending, undefined> {
  const { signal } = options;
  const origin = new URL(req.url).origin;
  const readTimeoutMs = options.readTimeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
  const controller = new AbortController();
  const silent = new ApiError({
    status: 0,
    code: "timeout",
    message: `No byte from ${origin} for ${readTimeoutMs} ms (the server sends a heartbeat every 15 s).`,
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const pause = () => clearTimeout(timer);
  const restart = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(silent), readTimeoutMs);
  };
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  signal?.addEventListener("abort", onAbort, { once: true });
  restart();
  let requestId: string | null = null;
  let answered = false;
  try {
    const res = await req.doFetch(req.url, {
      headers: {
        accept: "text/event-stream",
        authorization: `Bearer ${req.apiKey}`,
        ...(state.last !== null ? { "last-event-id": state.last } : {}),
        ...options.headers,
      },
      signal: controller.signal,
    });
    answered = true;
    requestId = res.headers.get("x-request-id");
    if (res.status !== 200 || !res.body) {
      const failure = await req.toError({ status: res.status, headers: res.headers, text: await res.text() });
      return { failure, fatal: !isRetryableStatus(res.status) };
    }
    for await (const f of frames(res.body, controller.signal, restart)) {
      if (f.event === "error") {
        const body = JSON.parse(f.data) as { error?: { code?: string; message?: string } };
        const code = body.error?.code ?? "unexpected_response";
        const failure = new ApiError({
          status: EVENT_STATUS[code] ?? 0,
          code: code as ApiErrorCode,
          message: body.error?.message ?? "The stream ended with an error.",
          requestId,
        });
        // A restart or a slow reader: reconnect; anything else (revoked key, plan, quota) ends the stream.
        return { failure, fatal: !RECONNECT_CODES.has(code) };
      }
      state.failures = 0; // this connection delivers
      if (f.comment) continue;
      const ev = JSON.parse(f.data) as StreamEvent;
      if (f.id !== null) state.last = f.id;
      pause();
      yield ev;
      restart();
    }
    const ended = `The stream from ${origin} ended.`;
    return { failure: new ApiError({ status: 0, code: "connection_error", message: ended, requestId }), fatal: false };
  } catch (err) {
    if (controller.signal.reason === silent) return { failure: silent, fatal: false };
    const why = err instanceof Error ? err.message : String(err);
    const message = answered ? `The stream from ${origin} broke: ${why}` : `No answer from ${origin}: ${why}`;
    const failure = new ApiError({ status: 0, code: "connection_error", message, requestId, cause: err });
    return { failure, fatal: false };
  } finally {
    pause();
    signal?.removeEventListener("abort", onAbort);
    controller.abort(); // leaving the loop (break, return, throw) closes the connection
  }
}

export function openStream(
  url: string,
  apiKey: string,
  doFetch: typeof fetch,
  toError: StreamRequest["toError"],
  options: StreamOptions = {},
): AsyncGenerator<StreamEvent, void, undefined> {
  return (async function* () {
    const state: StreamState = { last: options.lastEventId ?? null, failures: 0 };
    const maxReconnects = options.maxReconnects ?? 5;
    const { signal } = options;
    while (!signal?.aborted) {
      const { failure, fatal } = yield* connection({ url, apiKey, doFetch, toError }, options, state);
      if (signal?.aborted) return;
      if (fatal) throw failure;
      // The connection ended, broke or went silent: reconnect after the last event received.
      state.failures++;
      if (state.failures > maxReconnects) throw failure;
      try {
        await sleep(retryDelayMs(state.failures, failure.retryAfter), signal);
      } catch {
        return; // aborted while waiting
      }
    }
  })();
}
