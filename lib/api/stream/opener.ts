/**
 * What the stream route needs of the pipeline's stream hub (./hub.ts), as types only: the route context
 * (`HandlerContext.streams`) names this interface, so lib/api/route.ts does not import the hub and its fan-out.
 */
import type { StreamQuery } from "../../contract/stream";
import type { Caller } from "../credentials";
import type { ApiError } from "../errors";
import type { StreamLease } from "../stream-leases";
import type { StreamPosition } from "../stream-position";
import type { Recheck } from "./key-checks";

export interface OpenOptions {
  caller: Caller;
  /** The stream's slot among its key's (taken with `reserve`, freed when the stream ends). */
  lease: StreamLease;
  query: StreamQuery;
  requestId: string;
  after: StreamPosition | null;
  recheck: Recheck;
  /** The route's own plan rule, applied again on every re-check. */
  allowed: (caller: Caller) => ApiError | null;
}

export interface StreamOpener {
  reserve(caller: Caller, limit: number, requestId: string): Promise<StreamLease | null>;
  release(lease: StreamLease): Promise<void>;
  seedBudget(caller: Caller, quotaUsed: number, now: Date): void;
  body(o: OpenOptions): ReadableStream<Uint8Array>;
}
