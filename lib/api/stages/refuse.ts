/**
 * A refusal decided after the key is known and before the limits (inactive key, subscription, body too large, licensing,
 * idempotency): decided by the admission batch like every call with a known key, so it takes a burst unit and is
 * answered 429 once the key's minute is spent (issue 30), never counts against the quota, and is metered in the batch.
 */
import { errorFields, log } from "../../log";
import type { ApiError } from "../errors";
import { errorAnswer, limitRefusal, metered, refusals, send } from "./answer";
import type { KeyedCall, StageDeps } from "./call";
import { withLimits } from "./respond";

export async function refuse(call: KeyedCall, error: ApiError, deps: Pick<StageDeps, "admission">): Promise<Response> {
  const answer = errorAnswer(call, error);
  try {
    const limits = await deps.admission.admit({
      m: metered(call, answer),
      burst: call.burst,
      quota: call.quota,
      status: error.status,
      errorCode: error.code,
      record: true,
      quotaChecked: false,
      ...refusals(call, false),
    });
    return withLimits(
      call,
      limits.limited === "burst" ? errorAnswer(call, limitRefusal(call, "burst")) : answer,
      limits,
    );
  } catch (err) {
    // The refusal stands without its windows' headers: it serves nothing, so nothing is served unmetered.
    log.error("metering failed", { request_id: call.requestId, ...errorFields(err) });
    return send(call, answer);
  }
}
