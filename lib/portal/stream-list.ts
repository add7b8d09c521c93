/**
 * The playground's live stream list (pure): Server-Sent Events from GET /api/v1/stream (openStream), as the portal's
 * proxy passes them on, turned into list items (newest first, capped) or the stream's final error. Parsing is
 * eventsource-parser's; this file only decides what each message means.
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import type { UsageCell } from "../shared/usage-types";

export const STREAM_OPERATION = "GET /api/v1/stream";
/** The list keeps this many events; older ones fall off the end. */
export const STREAM_LIST_CAP = 200;
/** The portal's own event when it closes the stream (time limit, a newer stream of the same user). */
export const PLAYGROUND_END_EVENT = "playground.end";

export interface StreamItem {
  id: string;
  type: string;
  symbol: string;
  /** When the service detected the event (ISO 8601). */
  timestamp: string;
  data: unknown;
}

export type StreamMessage =
  | { kind: "event"; item: StreamItem }
  | { kind: "error"; code: string; message: string }
  | { kind: "end"; reason: string }
  | { kind: "heartbeat" };

/** One parsed SSE message in the list's terms; null for what the list ignores (unknown or malformed messages). */
export function streamMessage(m: EventSourceMessage): StreamMessage | null {
  let body: unknown;
  try {
    body = JSON.parse(m.data);
  } catch {
    return null;
  }
  if (typeof body !== "object" || body === null) return null;
  if (m.event === "error") {
    const e = (body as { error?: { code?: unknown; message?: unknown } }).error;
    return {
      kind: "error",
      code: typeof e?.code === "string" ? e.code : "stream_error",
      message: typeof e?.message === "string" ? e.message : "The stream ended with an error.",
    };
  }
  if (m.event === PLAYGROUND_END_EVENT) {
    const reason = (body as { reason?: unknown }).reason;
    return { kind: "end", reason: typeof reason === "string" ? reason : "The portal closed the stream." };
  }
  const e = body as Partial<StreamItem>;
  if (typeof e.id !== "string" || typeof e.type !== "string") return null;
  return {
    kind: "event",
    item: {
      id: e.id,
      type: e.type,
      symbol: typeof e.symbol === "string" ? e.symbol : "",
      timestamp: typeof e.timestamp === "string" ? e.timestamp : "",
      data: e.data ?? null,
    },
  };
}

/** A parser fed with the response's text chunks; calls `on` per message (comments are heartbeats). */
export function streamParser(on: (m: StreamMessage) => void): { feed(chunk: string): void } {
  const parser = createParser({
    onEvent: (m) => {
      const msg = streamMessage(m);
      if (msg) on(msg);
    },
    onComment: (c) => {
      if (c.trim() === "heartbeat") on({ kind: "heartbeat" });
    },
  });
  return { feed: (chunk) => parser.feed(chunk) };
}

/** New items in front (the newest first), an id seen already dropped, at most `cap` kept. */
export function prependItems(list: StreamItem[], arrived: StreamItem[], cap = STREAM_LIST_CAP): StreamItem[] {
  const seen = new Set(list.map((i) => i.id));
  const fresh: StreamItem[] = [];
  for (const item of arrived) {
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    fresh.push(item);
  }
  if (fresh.length === 0) return list;
  return [...fresh.reverse(), ...list].slice(0, cap);
}

/** The short line a screen reader hears for a batch of events (announced politely, at most every few seconds). */
export function arrivalNote(count: number, total: number): string {
  if (count === 0) return "";
  return `${count} new event${count === 1 ? "" : "s"}; ${total} in the list.`;
}

/**
 * The live stream's calls on one UTC day from the usage cells: each delivered event is metered as one call of
 * GET /api/v1/stream, as is opening a stream. Null when the day has none (the usage page then shows no card).
 */
export function streamCallsOn(cells: UsageCell[], day: string): number | null {
  let n = 0;
  for (const c of cells) if (c.bucket === day && c.endpointId === STREAM_OPERATION) n += c.calls;
  return n === 0 ? null : n;
}
