/** Parameter and result types of every operation, derived from the generated OpenAPI types. */
import type { operations, webhooks } from "./generated/schema.js";
import type { ERROR_CODES, OperationId } from "./generated/operations.js";

type Nothing = Record<never, never>;
type OrNothing<T> = [T] extends [never] ? Nothing : [T] extends [undefined] ? Nothing : T;
type Op<K extends OperationId> = operations[K];

type PathOf<O> = O extends { parameters: { path?: infer P } } ? OrNothing<NonNullable<P>> : Nothing;
type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? OrNothing<NonNullable<Q>> : Nothing;
type BodyOf<O> = O extends { requestBody?: infer B }
  ? [NonNullable<B>] extends [never]
    ? Nothing
    : NonNullable<B> extends { content: { "application/json": infer J } }
      ? J
      : Nothing
  : Nothing;

/** The named parameters of an operation: its path, query and body fields together, by their API names. */
export type Params<K extends OperationId> = PathOf<Op<K>> & QueryOf<Op<K>> & BodyOf<Op<K>>;

type SuccessOf<O> = O extends { responses: infer R } ? R[Extract<keyof R, 200 | 201 | 202 | 204>] : never;
type JsonOf<R> = R extends { content: { "application/json": infer J } } ? J : never;
/** Drops the envelope's generic `{[key: string]: unknown}` so a misspelt field of `data` does not compile. */
type KnownKeys<T> = T extends readonly unknown[] ? T : { [P in keyof T as string extends P ? never : P]: T[P] };
type DataOf<E> = E extends { data?: infer D } ? KnownKeys<NonNullable<D>> : unknown;

/** The `data` of an operation's success answer. */
export type Data<K extends OperationId> = DataOf<JsonOf<SuccessOf<Op<K>>>>;

export type ErrorCode = (typeof ERROR_CODES)[number];
export type DataLabel = "live" | "delayed-15m" | "end-of-day" | "demo" | "none";

/** The burst window's classic headers and the IETF structured fields as sent; null on routes without a key. */
export interface RateLimit {
  limit: number | null;
  remaining: number | null;
  /** Unix time (seconds) at which the per-minute window resets. */
  reset: number | null;
  /** `RateLimit` header as sent, e.g. `"minute";r=7;t=42, "day";r=990;t=3600`. */
  header: string | null;
  /** `RateLimit-Policy` header as sent. */
  policy: string | null;
}

/** Every result carries the envelope's disclaimer and data label with the data, in both route families. */
export interface Result<T> {
  data: T;
  /** Must be shown to end users wherever the analytics appear. */
  disclaimer: string;
  /** Family A's `meta.data_freshness`, family B's `dataLabel`. */
  dataLabel: DataLabel;
  /** Family A's `meta.is_mock`, family B's `isMockData`: true for test keys (demo data). */
  isMock: boolean;
  /** The `X-Request-Id` of the answer: quote it to support. */
  requestId: string;
  rateLimit: RateLimit | null;
  /** HTTP status of the answer (200, 201 or 202). */
  status: number;
}

export interface CallOptions {
  /** Aborts the call, including any wait between retries. */
  signal?: AbortSignal;
  /** Per-attempt timeout; defaults to the client's `timeoutMs`. */
  timeoutMs?: number;
  /** POST/PATCH: the key retries reuse. Generated per call unless given; `false` sends none and disables retries. */
  idempotencyKey?: string | false;
  /** Retries for this call; defaults to the client's `maxRetries`. */
  maxRetries?: number;
  /** Extra request headers (e.g. `X-Request-Id`). */
  headers?: Record<string, string>;
}

/** The HTTP answer behind a result or an error: status, every header, and the request id to quote to support. */
export interface RawResponse {
  status: number;
  headers: Headers;
  requestId: string | null;
}

type Call<K extends OperationId, R> =
  Nothing extends Params<K>
    ? (params?: Params<K>, options?: CallOptions) => Promise<R>
    : (params: Params<K>, options?: CallOptions) => Promise<R>;

/** `client.getX(params)` resolves to the result; `client.getX.withResponse(params)` to the result and the raw answer. */
type Method<K extends OperationId> = Call<K, Result<Data<K>>> & {
  withResponse: Call<K, { result: Result<Data<K>>; response: RawResponse }>;
};

/** One method per operation id. */
export type OperationMethods = { [K in OperationId]: Method<K> };

type WebhookBody<W> = W extends { post: { requestBody?: { content: { "application/json": infer J } } } } ? J : never;
/** A verified webhook delivery's parsed body: one of the documented event types. */
export type WebhookEvent = { [E in keyof webhooks]: WebhookBody<webhooks[E]> }[keyof webhooks];
