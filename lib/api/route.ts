/** A route: its method, path template, family, input schemas (which also document it) and a handler. */
import type { z } from "zod";
import type { Database } from "../db/client";
import type { AnalyticsEngine, ViewSpec } from "../engine/types";
import type { Caller } from "./credentials";

export type Family = "A" | "B";
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
}

export interface HandlerResult {
  data: unknown;
  /** As-of time of the market data used; absent for account resources (webhooks). */
  asOf?: Date;
  status?: number;
}

type Input<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;

export interface RouteDef {
  /** Endpoint id, e.g. "GET /api/v1/options-flow"; the key of licensing state and metering. */
  id: string;
  method: HttpMethod;
  path: string; // OpenAPI template, e.g. /api/v1/ticker/{symbol}/summary
  family: Family;
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
  response?: z.ZodType;
  /** Status of a successful answer (200 unless said). */
  successStatus?: number;
  /** Method syntax on purpose: each route's handler takes its own schemas' output types (checked in defineRoute). */
  handler(ctx: HandlerContext<unknown, unknown, unknown, Caller | null>): Promise<HandlerResult> | HandlerResult;
}

/** A route whose handler receives the parsed output types of its own params, query and body schemas. */
export function defineRoute<
  PS extends z.ZodType | undefined = undefined,
  QS extends z.ZodType | undefined = undefined,
  BS extends z.ZodType | undefined = undefined,
  A extends boolean = true,
>(
  route: Omit<RouteDef, "id" | "params" | "query" | "body" | "handler" | "authenticated"> & {
    authenticated: A;
    params?: PS;
    query?: QS;
    body?: BS;
    /** Authenticated routes' handlers get the caller; routes without a key get null. */
    handler(
      ctx: HandlerContext<
        Input<PS>,
        Input<QS>,
        BS extends z.ZodType ? z.output<BS> : undefined,
        A extends true ? Caller : null
      >,
    ): Promise<HandlerResult> | HandlerResult;
  },
): RouteDef {
  return { ...route, id: `${route.method} ${route.path}` };
}
