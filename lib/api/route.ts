/**
 * A route: its method, path template, family, operation id, input and response schemas (which also document it), the
 * envelope it answers in, the error codes it can answer, and a handler typed by all of them.
 */
import type { z } from "zod";
import type { Database } from "../db/client";
import type { AnalyticsEngine, ViewSpec } from "../engine/types";
import type { Caller } from "./credentials";
import type { ApiError, ErrorCode } from "./errors";
import type { StreamOpener } from "./stream/opener";

export type Family = "A" | "B";
/** The success body's shape: family A's `data` + `meta`, family B's flat envelope, or the bare data (the reference). */
export type Envelope = Family | "none";
export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

export interface HandlerContext<
  P = Record<string, string>,
  Q = Record<string, unknown>,
  B = unknown,
  C extends Caller | null = Caller,
> {
  params: P;
  query: Q;
  body: B;
  /** The key's caller; null on routes that take no key (`authenticated: false`). */
  caller: C;
  view: ViewSpec;
  engine: AnalyticsEngine;
  database: Database;
  requestId: string;
  now: Date;
  /** The request's Accept header (routes that can answer another media type, e.g. CSV). */
  accept: string | null;
  /** The request's headers (the stream reads Last-Event-ID). */
  headers: Headers;
  /** Runs the key and licensing checks again with this request's credentials (the stream, every second). */
  recheck: () => Caller | ApiError | Promise<Caller | ApiError>;
  /** The pipeline's stream hub (the stream route). */
  streams: () => StreamOpener;
}

export interface HandlerResult<T = unknown> {
  data: T;
  /** As-of time of the market data used; absent for account resources (webhooks). */
  asOf?: Date;
  status?: number;
  /** A body in another media type (e.g. CSV), sent as is instead of the JSON envelope. */
  text?: { contentType: string; body: string };
  /** `data` already written as JSON text (a cached answer): the envelope is written around it as is. */
  json?: string;
  /**
   * A streamed answer (routes with `streams`): once the call is admitted the pipeline answers `open(headers)`; when it
   * is refused (limits, HEAD) it calls `cancel()` instead. `data` is then unused.
   */
  stream?: StreamAnswer;
}

export interface StreamAnswer {
  /** `quotaUsed`: the quota window's use after admitting this call (the stream meters against it). */
  open(headers: Record<string, string>, quotaUsed: number): Response;
  cancel(): void;
}

/** What a `streams` route's handler answers: the stream to open once admitted, no data. */
export type StreamedResult = HandlerResult<undefined> & { stream: StreamAnswer };

/** An answer the handler holds already rendered: the data's JSON text, or a body in another media type; no data. */
export type RenderedResult = HandlerResult<undefined> &
  ({ json: string } | { text: { contentType: string; body: string } });

type Input<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;

export interface RouteDef {
  /** Endpoint id, e.g. "GET /api/v1/options-flow"; the key of licensing state and metering. */
  id: string;
  /** The reference's operation id, a method name for generated clients (e.g. listOptionsFlow). */
  operationId: string;
  method: HttpMethod;
  path: string; // OpenAPI template, e.g. /api/v1/ticker/{symbol}/summary
  /** Limits, error body shape and 405 shape follow the family (docs/api-contract.md §1). */
  family: Family;
  /** Which envelope a success answer is written in. */
  envelope: Envelope;
  summary: string;
  description: string;
  tags: string[];
  /** false for health and the reference: no key, not metered. */
  authenticated: boolean;
  /** Handlers that read or write account state run after the limits are admitted (two round trips). */
  touchesAccountState?: boolean;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The `data` the route answers; the handler's result is typed by it and the reference documents it. */
  response: z.ZodType;
  /** Status of a successful answer (200 unless said). */
  successStatus?: number;
  /** Every error code the route can answer; the reference lists exactly these. */
  errors: readonly ErrorCode[];
  /** Another media type the route answers besides JSON (the reference lists it beside application/json). */
  textAnswer?: { contentType: string };
  /** Answers Server-Sent Events: `response` documents one event, the reference lists `text/event-stream` and Last-Event-ID. */
  streams?: boolean;
  /** Method syntax on purpose: each route's handler takes its own schemas' types (checked in defineRoute). */
  handler(ctx: HandlerContext<unknown, unknown, unknown, Caller | null>): Promise<HandlerResult> | HandlerResult;
}

/** A route whose handler receives its params, query and body schemas' outputs and must answer its response schema. */
export function defineRoute<
  RS extends z.ZodType,
  PS extends z.ZodType | undefined = undefined,
  QS extends z.ZodType | undefined = undefined,
  BS extends z.ZodType | undefined = undefined,
  A extends boolean = true,
>(
  route: Omit<RouteDef, "id" | "params" | "query" | "body" | "response" | "handler" | "authenticated"> & {
    authenticated: A;
    params?: PS;
    query?: QS;
    body?: BS;
    response: RS;
    /** Authenticated routes' handlers get the caller; routes without a key get null. */
    handler(
      ctx: HandlerContext<
        Input<PS>,
        Input<QS>,
        BS extends z.ZodType ? z.output<BS> : undefined,
        A extends true ? Caller : null
      >,
    ):
      | Promise<HandlerResult<z.output<RS>> | StreamedResult | RenderedResult>
      | HandlerResult<z.output<RS>>
      | StreamedResult
      | RenderedResult;
  },
): RouteDef {
  return { ...route, id: `${route.method} ${route.path}` };
}
