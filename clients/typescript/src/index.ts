/** @options-research/client: typed client for the Options Market Research API (ESM; Node 20+, browsers, edge). */
export { createClient, type Client, type ClientOptions } from "./client.js";
export { ApiError, type ApiErrorCode } from "./errors.js";
export { CLIENT_VERSION } from "./version.js";
export type { StreamEvent, StreamOptions, StreamParams } from "./stream.js";
export { verifyWebhook, WebhookVerificationError, type VerifyOptions } from "./webhooks.js";
export { API_VERSION, ERROR_CODES, OPERATIONS, type OperationId } from "./generated/operations.js";
export type {
  CallOptions,
  Data,
  DataLabel,
  ErrorCode,
  Params,
  RateLimit,
  RawResponse,
  Result,
  WebhookEvent,
} from "./types.js";
export type { components, operations, paths, webhooks } from "./generated/schema.js";
