/** Answers as the stages build them: error answers in the route family's shape, success envelopes, and the Response. */
import { textResponse } from "../served-facts";
import { dataLabel } from "../../engine/types";
import { log } from "../../log";
import { secondsLeft } from "../../limits/windows";
import { BoundedMemo } from "../../util/bounded-memo";
import { errorBody, type ServedMeta, successBody, successText } from "../envelope";
import { ApiError, ERROR_STATUS, type ErrorAnswerSpec } from "../errors";
import type { Metered } from "../limits";
import { loggedErrorMessage } from "../logged-error";
import { loggedPath } from "../logged-path";
import type { Answer, Call, KeyedCall, Outcome } from "./call";

const JSON_TYPE = "application/json; charset=utf-8";
export const RETRY_SOON = { "retry-after": "5" };

/** Limits and metering cannot be enforced without the database: refuse rather than serve unmetered (fail closed). */
export const storeUnreachable = () =>
  new ApiError("data_source_unavailable", "The service's store is unreachable; retry shortly.");

/**
 * The pipeline's Response: its headers are a record with lower-case names made for this answer alone, which the HTTP
 * layer completes in place (lib/api/http/layer.ts).
 */
export function reply(status: number, body: unknown, requestId: string, extra?: Record<string, string>): Response {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return textResponse(text, { status, headers: { "content-type": JSON_TYPE, ...extra, "x-request-id": requestId } });
}

export const textOf = (answer: Answer) => (typeof answer.body === "string" ? answer.body : successText(answer.body));

/** The body's size in bytes as sent: none for HEAD, which answers like GET without the body. */
export const bytesOf = (call: Call, answer: Answer) => (call.request.method === "HEAD" ? 0 : answer.bytes);

export const statusOf = (call: Call, outcome: Outcome) =>
  outcome.ok ? (outcome.result.status ?? call.route.successStatus ?? 200) : outcome.error.status;

export interface ErrorAnswerOptions {
  /** Headers added to the error's own. */
  headers?: Record<string, string>;
  /** Rendered only for its size (an answer the call may not get): an undeclared code is then not logged. */
  sizeOnly?: boolean;
}

/** An error answer in the route family's shape. A code the route does not declare is a bug in the route table. */
export function errorAnswer(call: Call, error: ErrorAnswerSpec, options: ErrorAnswerOptions = {}): Answer {
  if (!options.sizeOnly && !call.route.errors.includes(error.code))
    log.error("undeclared error code", { request_id: call.requestId, endpoint: call.route.id, code: error.code });
  const headers = options.headers ? Object.assign({}, error.headers, options.headers) : error.headers;
  const text = JSON.stringify(errorBody(call.route.family, error, call.errorContext));
  const { status, code, message } = error;
  return { status, code, message, body: text, bytes: Buffer.byteLength(text), headers };
}

export const send = (call: Call, answer: Answer): Response =>
  reply(answer.status, textOf(answer), call.requestId, answer.headers);

export const fail = (call: Call, error: ApiError, headers?: Record<string, string>): Response =>
  send(call, errorAnswer(call, error, { headers }));

/** The answer's error when a window refuses the call (a plain object: see ErrorAnswerSpec). */
export function limitRefusal(call: KeyedCall, limited: "burst" | "quota"): ErrorAnswerSpec {
  const { caller, burst, quota, now } = call;
  if (limited === "burst") {
    const wait = String(secondsLeft(burst, now));
    return {
      code: "rate_limit_exceeded",
      status: ERROR_STATUS.rate_limit_exceeded,
      message: `Per-minute limit of ${burst.limit} requests reached; retry in ${wait} s.`,
      headers: { "retry-after": wait },
    };
  }
  const window = quota.name === "month" ? "monthly" : "daily";
  return {
    code: "plan_limit_exceeded",
    status: ERROR_STATUS.plan_limit_exceeded,
    message: `The ${caller.plan.nameA} plan's ${window} quota of ${quota.limit} calls is spent.`,
    headers: {},
  };
}

/** Sizes of refusal answers (refusalBytes): a few dozen distinct messages per plan in use. */
const refusalSizes = new BoundedMemo<string, number>(4096);

/**
 * What admission records of a call should a window refuse it (it decides later which answer is sent): each refusal's
 * size, and its message for the request log. The quota's is none where the quota is not checked (refuse.ts).
 */
export function refusals(call: KeyedCall, quotaChecked = true) {
  // Each window's refusal is made once here and used for both its size and its message.
  const burst = limitRefusal(call, "burst");
  const quota = quotaChecked ? limitRefusal(call, "quota") : null;
  return {
    refusedBytes: { burst: refusalBytes(call, burst), quota: quota ? refusalBytes(call, quota) : 0 },
    refusedMessages: { burst: burst.message, quota: quota ? quota.message : null },
  };
}

/**
 * The size of the answer a window's refusal would be, asked for every metered call (admission decides later whether
 * it is sent). The body depends only on the family, the message and the error context's environment and label, plus
 * the context's timestamp in family B, which is 24 characters for every year from 0 to 9999: so sizes are kept per
 * family, environment, label and message, and rendered afresh outside those years.
 */
export function refusalBytes(call: KeyedCall, refusal: ErrorAnswerSpec): number {
  if (call.request.method === "HEAD") return 0;
  const render = () => bytesOf(call, errorAnswer(call, refusal, { sizeOnly: true }));
  const { env, label, now } = call.errorContext;
  const year = now.getUTCFullYear();
  if (year < 0 || year > 9999) return render();
  return refusalSizes.get(`${call.route.family}|${env}|${label}|${refusal.message}`, render);
}

/** The handler's error, or its data in the route's envelope, without the windows' headers. */
export function answerOf(call: KeyedCall, outcome: Outcome): Answer {
  if (!outcome.ok) return errorAnswer(call, outcome.error);
  const { result } = outcome;
  call.facts.asOf = result.asOf; // Cache-Control (lib/api/http)
  const status = statusOf(call, outcome);
  if (result.text) {
    const { body, contentType } = result.text;
    const headers = { "cache-control": "no-store", "content-type": contentType };
    return { status, code: null, body, bytes: Buffer.byteLength(body), headers };
  }
  const headers = { "cache-control": "no-store" };
  if (call.route.envelope === "none") {
    const text = result.json ?? (typeof result.data === "string" ? result.data : JSON.stringify(result.data));
    return { status, code: null, body: text, bytes: Buffer.byteLength(text), headers };
  }
  const { caller, now, view } = call;
  const label = result.asOf ? dataLabel(view, result.asOf, now) : view.env === "demo" ? "demo" : "none";
  const meta: ServedMeta = {
    path: call.path,
    planName: caller.plan.nameA,
    env: caller.env,
    label,
    requestId: call.requestId,
    now,
  };
  const body = successBody(call.route.envelope, result.data, meta, result.json);
  return { status, code: null, body, bytes: body.bytes, headers };
}

/** What the usage event keeps of a call; `answer` is what it will be answered (its size is metered). */
export function metered(call: KeyedCall, answer?: Answer): Metered {
  return {
    requestId: call.requestId,
    keyId: call.caller.keyId,
    accountId: call.caller.accountId,
    endpointId: call.route.id,
    path: loggedPath(call.url),
    bytes: answer ? bytesOf(call, answer) : null,
    errorMessage: answer?.message === undefined ? null : loggedErrorMessage(answer.message),
    latencyMs: performance.now() - call.started,
    now: call.now,
  };
}
