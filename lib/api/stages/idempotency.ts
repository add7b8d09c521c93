/**
 * Idempotency (POST and PATCH with an Idempotency-Key, docs/api-contract.md "Idempotent requests"): the first call for
 * (account, key) runs and its answer is kept; a retry of the same request gets the kept answer, another request with
 * the key 422, a retry during the first call 409, a malformed key 400. The refusals come after the licensing gate, so
 * they count against the burst like any call (refuse.ts).
 */
import { errorFields, log } from "../../log";
import { ApiError } from "../errors";
import {
  claim,
  IDEMPOTENT_METHODS,
  idempotencyKeyOf,
  releaseClaim,
  REPLAYED_HEADER,
  requestDigest,
  settleClaim,
  type StoredAnswer,
} from "../idempotency";
import { admitBurstOnly, limitedAnswer, limitsFailed } from "./admit";
import type { KeyedCall, StageDeps } from "./call";
import { refuse } from "./refuse";
import { metered } from "./answer";
import { settle } from "../limits";
import { limitHeaders, respond } from "./respond";

/** A call that may run: `keep` runs it and keeps (or releases) its answer under the claimed key, if any. */
export interface Claimed {
  keep(run: () => Promise<Response>): Promise<Response>;
}

const UNCLAIMED: Claimed = { keep: (run) => run() };

type ClaimDeps = Pick<StageDeps, "database" | "admission" | "touch">;

/** Claims the call's Idempotency-Key; a replay or a refusal ends the call here. */
export async function claimIdempotency(call: KeyedCall, deps: ClaimDeps): Promise<Claimed | Response> {
  if (!IDEMPOTENT_METHODS.has(call.route.method)) return UNCLAIMED;
  const key = idempotencyKeyOf(call.request.headers, call.caller.keyId); // scoped per calling key (issue 30)
  if (key === null) return UNCLAIMED;
  if (key instanceof ApiError) return refuse(call, key, deps);
  const { sql } = deps.database;
  const account = call.caller.accountId;
  let claimed: Awaited<ReturnType<typeof claim>>;
  try {
    claimed = await claim(sql, account, key, requestDigest(call.route.method, call.path, call.bodyText), call.now);
  } catch (err) {
    return limitsFailed(call, err);
  }
  switch (claimed.kind) {
    case "reused":
      return refuse(
        call,
        new ApiError("idempotency_key_reused", "This Idempotency-Key was used with another request."),
        deps,
      );
    case "in_use": {
      const message = "A request with this Idempotency-Key is still running; retry shortly.";
      return refuse(call, new ApiError("idempotency_key_in_use", message, { "retry-after": "1" }), deps);
    }
    case "replay":
      return replay(call, claimed.answer, deps);
  }
  return {
    async keep(run) {
      let response: Response;
      try {
        response = await run();
      } catch (err) {
        await releaseClaim(sql, account, key).catch((cause) =>
          log.error("metering failed", { request_id: call.requestId, ...errorFields(cause) }),
        );
        throw err;
      }
      return settleClaim(sql, account, key, response);
    },
  };
}

/** A kept answer, byte for byte: it takes a burst unit like any request, but no quota and no usage event. */
async function replay(call: KeyedCall, answer: StoredAnswer, deps: ClaimDeps): Promise<Response> {
  let limits: Awaited<ReturnType<typeof admitBurstOnly>>;
  try {
    limits = await admitBurstOnly(call, deps);
  } catch (err) {
    return limitsFailed(call, err);
  }
  if (limits.limited === "burst") {
    const refused = limitedAnswer(call, "burst");
    const settled = { m: metered(call, refused), status: refused.status, errorCode: refused.code, limits };
    await settle(deps.database.sql, Object.assign(settled, { burst: call.burst, quota: call.quota })).catch((err) =>
      log.error("metering failed", { request_id: call.requestId, ...errorFields(err) }),
    );
    return respond(call, refused, limits, deps);
  }
  log.info("idempotent replay", { request_id: call.requestId, replayed_request_id: answer.headers["x-request-id"] });
  return new Response(answer.body, {
    status: answer.status,
    headers: Object.assign({}, answer.headers, limitHeaders(call, limits), { [REPLAYED_HEADER]: "true" }),
  });
}
