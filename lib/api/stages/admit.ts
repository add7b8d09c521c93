/**
 * Per-minute burst → quota (docs/api-contract.md §4), and metering: the call's answer is decided before admission so
 * that one admission statement limits and meters it. Handlers that touch account state run only once admitted
 * (admitThenExecute). The store that enforces the limits failing refuses the call (fail closed).
 */
import { clientOf } from "../../db/tx";
import { errorFields, log } from "../../log";
import { ApiError } from "../errors";
import { type LimitOutcome, settle, takeQuota } from "../limits";
import {
  answerOf,
  errorAnswer,
  fail,
  limitRefusal,
  metered,
  RETRY_SOON,
  refusals,
  storeUnreachable,
  statusOf,
} from "./answer";
import type { Answer, KeyedCall, Outcome, StageDeps } from "./call";
import { execute } from "./execute";
import { openStream, respond } from "./respond";

type AdmitDeps = Pick<StageDeps, "admission" | "touch">;

/**
 * admit_batch's status for a call whose answer is not known yet (its handler runs after admission, or a replay answers
 * a kept answer): no 2xx, so it takes no quota unit; with `record: false` nothing is metered by the batch.
 */
const NOT_ANSWERED_YET = 0;

/** A handler's outcome: limited and metered in the next admission batch, then answered (or its stream opened). */
export async function admitAndAnswer(call: KeyedCall, outcome: Outcome, deps: AdmitDeps): Promise<Response> {
  const answer = answerOf(call, outcome);
  const stream = outcome.ok ? outcome.result.stream : undefined;
  let limits: LimitOutcome;
  try {
    limits = await deps.admission.admit({
      m: metered(call, answer),
      burst: call.burst,
      quota: call.quota,
      status: answer.status,
      errorCode: answer.code,
      record: true,
      ...refusals(call),
    });
  } catch (err) {
    stream?.cancel();
    return limitsFailed(call, err);
  }
  if (stream && !limits.limited && call.request.method !== "HEAD") return openStream(call, stream, limits, deps);
  stream?.cancel();
  return respond(call, limits.limited ? limitedAnswer(call, limits.limited) : answer, limits, deps);
}

/** Only the burst, for a replayed answer: it takes a burst unit like any request, no quota and no usage event. */
export function admitBurstOnly(call: KeyedCall, deps: Pick<StageDeps, "admission">): Promise<LimitOutcome> {
  return deps.admission.admit({
    m: metered(call),
    burst: call.burst,
    quota: call.quota,
    status: NOT_ANSWERED_YET,
    errorCode: null,
    record: false,
    quotaChecked: false,
  });
}

/**
 * For handlers that touch account state: burst is taken and the quota checked first; the handler then runs in a
 * transaction that also takes its quota unit, and the call is metered after it.
 */
export async function admitThenExecute(
  call: KeyedCall,
  deps: Pick<StageDeps, "admission" | "touch" | "database" | "engine" | "config" | "verifier" | "streams">,
): Promise<Response> {
  try {
    const admitted = await deps.admission.admit({
      m: metered(call),
      burst: call.burst,
      quota: call.quota,
      status: NOT_ANSWERED_YET,
      errorCode: null,
      record: false,
    });
    let limits = admitted;
    let answer: Answer;
    if (admitted.limited !== null) answer = limitedAnswer(call, admitted.limited);
    else {
      const ran = await executeInTransaction(call, deps);
      if (ran.quotaUsed === null) {
        limits = Object.assign({}, admitted, { limited: "quota" as const, status: 403, quotaUsed: call.quota.limit }); // spent meanwhile
        answer = limitedAnswer(call, "quota");
      } else {
        limits = Object.assign({}, admitted, { quotaUsed: ran.quotaUsed ?? admitted.quotaUsed });
        answer = answerOf(call, ran.outcome);
      }
    }
    const m = metered(call, answer);
    await settle(deps.database.sql, {
      m,
      status: answer.status,
      errorCode: answer.code,
      burst: call.burst,
      quota: call.quota,
      limits,
    });
    return respond(call, answer, limits, deps);
  } catch (err) {
    return limitsFailed(call, err);
  }
}

const ROLLBACK = new Error("rollback"); // thrown inside a transaction to undo a call that did not succeed

/**
 * Runs a state-changing handler in a transaction that also takes its quota unit: a failed call writes nothing and
 * uses no quota; when the quota is spent by concurrent callers the handler's writes are rolled back (quotaUsed null).
 */
async function executeInTransaction(
  call: KeyedCall,
  deps: Pick<StageDeps, "database" | "engine" | "config" | "verifier" | "streams">,
): Promise<{ outcome: Outcome; quotaUsed: number | null | undefined }> {
  let outcome: Outcome | undefined;
  let quotaUsed: number | null | undefined;
  try {
    await deps.database.db.transaction(async (tx) => {
      // Both handles run inside this transaction (on the embedded engine a query outside it would wait for it).
      const database = Object.assign({}, deps.database, { db: tx, sql: clientOf(tx) });
      outcome = await execute(call, Object.assign({}, deps, { database }));
      const status = statusOf(call, outcome);
      if (status < 200 || status >= 300) throw ROLLBACK;
      quotaUsed = await takeQuota(tx, call.caller.keyId, call.quota);
      if (quotaUsed === null) throw ROLLBACK;
    });
  } catch (err) {
    if (err !== ROLLBACK) throw err;
  }
  if (!outcome) throw new Error("the transaction ended before its handler ran");
  return { outcome, quotaUsed };
}

/** The answer when a window refuses the call. */
export const limitedAnswer = (call: KeyedCall, limited: "burst" | "quota"): Answer =>
  errorAnswer(call, limitRefusal(call, limited));

/** The store that enforces the limits failed: refuse (fail closed) and say when to retry. */
export function limitsFailed(call: KeyedCall, err: unknown): Response {
  log.error("limits or metering failed", {
    request_id: call.requestId,
    endpoint: call.route.id,
    ...errorFields((err as { cause?: unknown }).cause ?? err),
  });
  // The admission batcher answers with the contract's error itself (store failure, or its queue full).
  return fail(call, err instanceof ApiError ? err : storeUnreachable(), RETRY_SOON);
}
