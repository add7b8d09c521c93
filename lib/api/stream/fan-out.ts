/**
 * The open streams of one process and what is written to them: a round's frames as one shared chunk, heartbeats, and
 * the final `error` event that ends a stream (docs/api-contract.md "Live stream"). A client that leaves more than
 * STREAM_MAX_UNREAD_BYTES unread is ended with `slow_consumer` rather than buffered without bound.
 */
import { STREAM_HEARTBEAT_MS, STREAM_MAX_UNREAD_BYTES } from "../../contract/stream";
import { log } from "../../log";
import { metrics } from "../../metrics/registry";
import type { Caller } from "../credentials";
import { errorBody } from "../envelope";
import type { ApiError } from "../errors";
import type { StreamLease } from "../stream-leases";
import type { StreamPosition } from "../stream-position";
import {
  encodeText,
  type Frame,
  type Joined,
  joinFrames,
  type KeyEnv,
  type StoredRow,
  type StreamFilter,
} from "./frames";
import { slowConsumer } from "./end-reasons";
import type { Recheck } from "./key-checks";

/** One open stream. */
export interface Subscriber {
  id: number;
  env: KeyEnv;
  /** The caller as its key stood at the last re-check. */
  caller: Caller;
  lease: StreamLease;
  requestId: string;
  filter: StreamFilter;
  /** Rows at or before this id were sent (or skipped); rows after it are this stream's to send. */
  after: StreamPosition;
  /** While the stream replays its Last-Event-ID's rows: the new rows read meanwhile, sent after them. */
  catchingUp: StoredRow[] | null;
  controller: ReadableStreamDefaultController<Uint8Array> | null;
  closed: boolean;
  recheck: Recheck;
  allowed: (caller: Caller) => ApiError | null;
  delivered: number;
}

const HEARTBEAT = encodeText(": heartbeat\n\n");

export class FanOut {
  private readonly open = new Map<number, Subscriber>();
  private heartbeat: NodeJS.Timeout | null = null;

  /** `onDrop`: a stream closed (ended, or its client left); its lease is to be freed. */
  constructor(private readonly onDrop: (s: Subscriber) => void) {}

  get size(): number {
    return this.open.size;
  }

  streams(): IterableIterator<Subscriber> {
    return this.open.values();
  }

  /** Opens the stream's body: the opening comment, then whatever is sent to it. */
  add(s: Subscriber, controller: ReadableStreamDefaultController<Uint8Array>): void {
    s.controller = controller;
    controller.enqueue(encodeText(": stream open\n\n"));
    this.open.set(s.id, s);
    metrics.streams.opened();
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => {
      for (const t of this.open.values()) this.write(t, HEARTBEAT);
    }, STREAM_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Writes a stream's frames of a round as one chunk (shared through `joined`) and moves its position past them. */
  send(s: Subscriber, frames: Frame[], joined: Joined): void {
    if (s.closed || !frames.length) return;
    const bytes = joinFrames(frames, joined);
    const last = frames[frames.length - 1];
    s.after = { row: last.row, index: last.index };
    s.delivered += frames.length;
    metrics.streams.sent(frames.length);
    this.write(s, bytes);
  }

  private write(s: Subscriber, chunk: Uint8Array, final = false): void {
    if (s.closed || !s.controller) return;
    try {
      s.controller.enqueue(chunk);
    } catch {
      this.drop(s);
      return;
    }
    // Backpressure: a reader this far behind is ended (its last event says so) rather than buffered without bound. The
    // buffers are shared between streams, so memory stays bounded by the distinct bytes of the rounds still unread.
    if (!final && -(s.controller.desiredSize ?? 0) > STREAM_MAX_UNREAD_BYTES) this.end(s, slowConsumer());
  }

  /** Ends a stream with a final `error` event carrying the family B error body. */
  end(s: Subscriber, error: ApiError): void {
    if (s.closed) return;
    const body = errorBody("B", error, { env: s.env, label: s.env === "test" ? "demo" : "none", now: new Date() });
    this.write(s, encodeText(`event: error\ndata: ${JSON.stringify(body)}\n\n`), true);
    log.info("stream ended", { request_id: s.requestId, code: error.code, delivered: s.delivered });
    try {
      s.controller?.close();
    } catch {
      // already closed by the client
    }
    this.drop(s);
  }

  /** Forgets a stream without a last event (its client left, or its body can no longer be written). */
  drop(s: Subscriber): void {
    if (s.closed) return;
    s.closed = true;
    this.open.delete(s.id);
    metrics.streams.closed();
    this.onDrop(s);
  }

  /** Ends the streams `which` picks (all by default) with `error`. */
  endAll(error: ApiError, which: (s: Subscriber) => boolean = () => true): void {
    for (const s of [...this.open.values()]) if (which(s)) this.end(s, error);
  }

  /** Ends every stream and stops the heartbeat. */
  close(error: ApiError): void {
    this.endAll(error);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }
}
