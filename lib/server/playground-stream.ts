/**
 * The playground's live stream (docs/portal-ui.md "Playground"): opens GET /api/v1/stream (openStream) through the
 * in-process gateway as one of the account's own keys or with a pasted one, and passes the Server-Sent Events on to the
 * browser. Bounded: one stream per portal user (a newer one closes the older), closed after STREAM_MINUTES, on Stop
 * (the browser aborts) or when the gateway ends it (its final `error` event passes through). Metered like any stream.
 */
import "server-only";
import { allRoutes } from "../api/routes";
import { DomainError } from "../domain/errors";
import type { PlaygroundRequest, PlaygroundResponse } from "../portal/playground-call";
import { requestPath } from "../portal/playground-operations";
import { PLAYGROUND_END_EVENT, STREAM_OPERATION } from "../portal/stream-list";
import type { PlaygroundCredential } from "../domain/playground";
import { type GatewayEntry, playgroundResponse, sendThrough } from "./playground-gateway";

/** How long a playground stream stays open. */
export const STREAM_MINUTES = 10;

const encoder = new TextEncoder();
/** Each user's open stream, by user id: the function that closes it with a reason. */
const openStreams = new Map<string, (reason: string) => void>();

const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
};

/**
 * The stream as the browser reads it (text/event-stream), or, when the gateway refused it (bad filters, limits, key),
 * the refusal as the playground shows any answer.
 */
export async function openPlaygroundStream(
  gateway: GatewayEntry,
  origin: string,
  req: PlaygroundRequest,
  credential: () => Promise<PlaygroundCredential>,
  userId: string,
  signal: AbortSignal,
  minutes = STREAM_MINUTES,
): Promise<Response | PlaygroundResponse> {
  const route = allRoutes.find((r) => r.id === req.operation);
  if (!route || route.id !== STREAM_OPERATION)
    throw new DomainError("invalid", `No stream operation ${req.operation.slice(0, 100)}.`, { field: "operation" });
  const path = requestPath(route.path, {}, req.query);
  const resolved = await credential();
  openStreams.get(userId)?.("You opened another stream in the playground; this one closed.");
  const started = performance.now();
  const upstream = new AbortController();
  const res = await sendThrough(gateway, origin + path, { signal: upstream.signal }, true, async () => resolved);
  if (!res.ok || !res.body || !(res.headers.get("content-type") ?? "").startsWith("text/event-stream"))
    return playgroundResponse(res, started, path);

  const reader = res.body.getReader();
  let finished = false;
  let timer: NodeJS.Timeout | undefined;
  let finish: (reason: string | null) => void = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      finish = (reason) => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        if (openStreams.get(userId) === close) openStreams.delete(userId);
        try {
          if (reason)
            controller.enqueue(
              encoder.encode(`event: ${PLAYGROUND_END_EVENT}\ndata: ${JSON.stringify({ reason })}\n\n`),
            );
          controller.close();
        } catch {
          // the browser is gone already
        }
        reader.cancel().catch(() => {});
        upstream.abort();
      };
      const close = (reason: string) => finish(reason);
      openStreams.set(userId, close);
      timer = setTimeout(
        () => finish(`Closed after ${minutes} minutes, the playground's limit: run it again to go on.`),
        minutes * 60_000,
      );
      timer.unref?.();
      signal.addEventListener("abort", () => finish(null), { once: true });
    },
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (finished) return;
        if (done) finish(null);
        else controller.enqueue(value);
      } catch {
        finish(null);
      }
    },
    cancel() {
      finish(null);
    },
  });
  return new Response(body, {
    status: 200,
    headers: { ...SSE_HEADERS, "x-request-id": res.headers.get("x-request-id") ?? "" },
  });
}

/** Streams open in the playground on this process (tests). */
export function playgroundStreamsOpen(): number {
  return openStreams.size;
}
