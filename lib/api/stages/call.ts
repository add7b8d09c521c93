/**
 * What travels through the pipeline's stages (lib/api/pipeline.ts): the call as resolved, the call once its key is
 * known, the answer before its rate-limit headers, and the dependencies every stage receives. Each stage is a function
 * `(call, deps) => Promise<next call | Response>`: a Response ends the call.
 */
import type { ServedFacts } from "../served-facts";
import type { Database } from "../../db/client";
import type { AnalyticsEngine, ViewSpec } from "../../engine/types";
import { burstWindow, quotaWindow, type Window } from "../../limits/windows";
import type { GatewayConfig } from "../config-cache";
import type { Caller, KeyLookup } from "../credentials";
import { type ErrorContext, keyedErrorContext, type SuccessBody } from "../envelope";
import type { ApiError } from "../errors";
import type { AdmissionCall, LimitOutcome } from "../limits";
import type { HandlerResult, RouteDef } from "../route";
import type { Match } from "../router";
import type { StreamOpener } from "../stream/opener";

/** What the stages use; each stage takes only what it reads (unit tests pass fakes). */
export interface StageDeps {
  database: Database;
  engine: AnalyticsEngine;
  verifier: KeyLookup;
  config: { get(): GatewayConfig | Promise<GatewayConfig> };
  admission: { admit(call: AdmissionCall): Promise<LimitOutcome> };
  match: (method: string, path: string) => Match;
  clock: () => Date;
  /** Records that a key was used (api_keys.last_used_at, batched). */
  touch: (keyId: string, now: Date) => void;
  /** The pipeline's stream hub (its leases, re-checks and fan-out), created on the first stream. */
  streams: () => StreamOpener;
}

/** A request as it arrives, before any stage. */
export interface Arrival {
  request: Request;
  url: URL;
  /** performance.now() at arrival, for the metered latency. */
  started: number;
}

/** One request that resolved to a route. */
export interface Call extends Arrival {
  /** What the HTTP layer reads after the pipeline (lib/api/served-facts.ts), written in place by the stages. */
  readonly facts: ServedFacts;
  /** The request path without a trailing slash. */
  readonly path: string;
  readonly requestId: string;
  readonly now: Date;
  readonly route: RouteDef;
  /** Path parameters as matched, before their schema parses them. */
  readonly rawParams: Record<string, string>;
  /** What an error body says about data: the caller's environment once the key is known. */
  readonly errorContext: ErrorContext;
  readonly caller: Caller | null;
  readonly view: ViewSpec;
  /** The request body as read (routes with a body), "" otherwise. */
  readonly bodyText: string;
}

/** A call whose key is known: its caller, configuration and limit windows. */
export interface KeyedCall extends Call {
  readonly caller: Caller;
  readonly config: GatewayConfig;
  readonly burst: Window;
  readonly quota: Window;
}

export type Outcome = { ok: true; result: HandlerResult } | { ok: false; error: ApiError };

/**
 * An answer before its rate-limit headers, decided before admission so that its size is metered with the call. A success
 * body stays in parts until it is sent (textOf): its size is known without the joined text, which would otherwise be
 * held, and copied by the GC, while the call waits for its admission batch.
 */
export interface Answer {
  status: number;
  /** The error code an error answer carries; null on a success. */
  code: string | null;
  /** The error's message on an error answer (the request log keeps it: lib/api/logged-error.ts). */
  message?: string;
  body: string | SuccessBody;
  /** The body's size in UTF-8 bytes. */
  bytes: number;
  headers: Record<string, string> | undefined;
}

export const DEMO_VIEW: ViewSpec = { env: "demo", entitlement: "demo" };

export const anonymous = (now: Date): ErrorContext => ({ env: null, label: "none", now });

/** The call with what its caller decides: the market view, the error context and the two limit windows. */
export function keyedCall(call: Call, config: GatewayConfig, caller: Caller): KeyedCall {
  const { family } = call.route;
  call.facts.accountId = caller.accountId; // CORS (lib/api/http)
  return withCall(call, {
    caller,
    config,
    view: caller.env === "test" ? DEMO_VIEW : { env: "live", entitlement: caller.plan.dataEntitlement },
    errorContext: keyedErrorContext(caller.env, call.now),
    burst: burstWindow(family, caller.plan, call.now),
    quota: quotaWindow(family, caller.plan, call.now),
  });
}

/**
 * The call with some fields added or replaced. Object.assign, not `{ ...call, … }`: on Node 20 a spread followed by
 * more properties costs 3–6 µs a call against about 0.2 µs (docs/benchmark.md, 28 Nov).
 */
export function withCall<C extends Call, T extends Partial<KeyedCall>>(call: C, more: T): C & T {
  return Object.assign({}, call, more);
}
