/** The last stage: an admitted call's answer (or stream) with its windows' rate-limit headers. */
import { rateLimitHeaders } from "../rate-headers";
import type { LimitOutcome } from "../limits";
import type { StreamAnswer } from "../route";
import { reply, textOf } from "./answer";
import type { Answer, KeyedCall, StageDeps } from "./call";

/** The windows' headers as the admission statement left them. */
export function limitHeaders(call: KeyedCall, limits: Pick<LimitOutcome, "burstUsed" | "quotaUsed">) {
  const { caller, burst, quota, now } = call;
  return rateLimitHeaders(burst, limits.burstUsed, quota, limits.quotaUsed, now, caller);
}

/** The answer with the windows' headers; a refusal's answer too (it does not mark the key used). */
export function withLimits(call: KeyedCall, answer: Answer, limits: LimitOutcome): Response {
  const headers = limitHeaders(call, limits);
  return reply(
    answer.status,
    textOf(answer),
    call.requestId,
    answer.headers ? Object.assign({}, answer.headers, headers) : headers,
  );
}

/** An admitted call's answer: marks its key used and adds the windows' headers. */
export function respond(call: KeyedCall, answer: Answer, limits: LimitOutcome, deps: Pick<StageDeps, "touch">) {
  deps.touch(call.caller.keyId, call.now);
  call.facts.payload = typeof answer.body === "string" ? answer.body : answer.body.data; // ETag
  return withLimits(call, answer, limits);
}

/** A streamed answer (routes with `streams`), opened once the call is admitted, with the windows' headers. */
export function openStream(
  call: KeyedCall,
  stream: StreamAnswer,
  limits: LimitOutcome,
  deps: Pick<StageDeps, "touch">,
): Response {
  deps.touch(call.caller.keyId, call.now);
  const headers = limitHeaders(call, limits);
  headers["x-request-id"] = call.requestId;
  return stream.open(headers, limits.quotaUsed);
}
