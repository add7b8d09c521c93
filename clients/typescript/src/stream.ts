/**
 * The live stream (`GET /api/v1/stream`, Server-Sent Events) as an async iterator: `for await (const ev of
 * client.openStream({ events: ["flow.block"] }))`. It reconnects after a dropped connection with `Last-Event-ID`, so no
 * event is missed or seen twice; the service's final `error` event (revoked key, plan, quota) ends it with an ApiError.
 * Aborting the signal (or leaving the loop) closes the connection and ends the iteration.
 */
import { ApiError, type ApiErrorCode } from "./errors.js";
import type { operations } from "./generated/schema.js";
import { RETRYABLE_STATUS, retryDelayMs, sleep } from "./retry.js";

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

interface Frame {
  id: string | null;
  event: string;
  data: string;
}

/** Splits a text/event-stream body into frames (comments, such as heartbeats, are skipped). */
async function* frames(body: ReadableStream<Uint8Array>): AsyncGenerator<Frame> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buf += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
      for (let cut = buf.indexOf("\n\n"); cut >= 0; cut = buf.indexOf("\n\n")) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        const f: Frame = { id: null, event: "message", data: "" };
        let hasData = false;
        for (const line of block.split("\n")) {
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
        if (hasData) yield f;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

export function openStream(
  url: string,
  apiKey: string,
  doFetch: typeof fetch,
  toError: (res: { status: number; headers: Headers; text: string }) => Promise<ApiError>,
  options: StreamOptions = {},
): AsyncGenerator<StreamEvent, void, undefined> {
  return (async function* () {
    let last = options.lastEventId ?? null;
    let failures = 0;
    const maxReconnects = options.maxReconnects ?? 5;
    const { signal } = options;
    while (!signal?.aborted) {
      const controller = new AbortController();
      const onAbort = () => controller.abort(signal?.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      let failure: ApiError | null = null;
      try {
        let res: Response;
        try {
          res = await doFetch(url, {
            headers: {
              accept: "text/event-stream",
              authorization: `Bearer ${apiKey}`,
              ...(last !== null ? { "last-event-id": last } : {}),
              ...options.headers,
            },
            signal: controller.signal,
          });
        } catch (err) {
          if (signal?.aborted) return;
          throw new ApiError({
            status: 0,
            code: "connection_error",
            message: `No answer from ${new URL(url).origin}: ${err instanceof Error ? err.message : String(err)}`,
            cause: err,
          });
        }
        if (res.status !== 200 || !res.body) {
          failure = await toError({ status: res.status, headers: res.headers, text: await res.text() });
          if (!RETRYABLE_STATUS.has(res.status)) throw failure;
        } else {
          failures = 0;
          for await (const f of frames(res.body)) {
            if (f.event === "error") {
              const body = JSON.parse(f.data) as { error?: { code?: string; message?: string } };
              const code = body.error?.code ?? "unexpected_response";
              failure = new ApiError({
                status: EVENT_STATUS[code] ?? 0,
                code: code as ApiErrorCode,
                message: body.error?.message ?? "The stream ended with an error.",
                requestId: res.headers.get("x-request-id"),
              });
              if (!RECONNECT_CODES.has(code)) throw failure; // a restart or a slow reader: reconnect; anything else ends it
              break;
            }
            const ev = JSON.parse(f.data) as StreamEvent;
            if (f.id !== null) last = f.id;
            yield ev;
          }
        }
      } catch (err) {
        if (signal?.aborted) return;
        if (err instanceof ApiError && err.status !== 0 && !RECONNECT_CODES.has(err.code)) throw err;
        failure =
          err instanceof ApiError
            ? err
            : new ApiError({ status: 0, code: "connection_error", message: String(err), cause: err });
      } finally {
        signal?.removeEventListener("abort", onAbort);
        controller.abort(); // leaving the loop (break, return, throw) closes the connection
      }
      // The connection ended or failed: reconnect after the last event received.
      if (failure) failures++;
      if (failures > maxReconnects) throw failure;
      try {
        await sleep(failures ? retryDelayMs(failures, failure?.retryAfter ?? null) : 0, signal);
      } catch {
        return; // aborted while waiting
      }
    }
  })();
}
