/**
 * The portal's webhook test send and replay, metered and limited exactly like their /api/v1 twins (testAlert,
 * replayAlert): the webhook's key takes a family B burst unit (per minute, per key) and, on success, a quota unit (per
 * day, per account and environment) in the same admission function and counter rows the pipeline uses, and the call is
 * recorded as a usage event of the twin's endpoint. Only then does the same domain function run.
 */
import "server-only";
import type { Database } from "../db/client";
import { clientOf } from "../db/tx";
import { runBatch } from "../api/admission";
import { fromDomainError } from "../api/errors";
import { settle, takeQuota, type Metered } from "../api/limits";
import { replayAlert, testAlert } from "../api/routes/alerts-manage";
import { DomainError } from "../domain/errors";
import { foundWebhook, webhookKeyLimits } from "../domain/webhook-registration";
import { burstWindow, quotaWindow, secondsLeft } from "../limits/windows";

const TWINS = { test: testAlert, replay: replayAlert };
const SPENT = new Error("quota spent"); // rolls back the domain call's writes when the quota ran out meanwhile

export async function meteredWebhookCall<T>(
  database: Database,
  call: { accountId: string; webhookId: string; twin: keyof typeof TWINS; requestId: string },
  run: (database: Database) => Promise<T>,
  now = new Date(),
): Promise<T> {
  const started = performance.now();
  const key = foundWebhook(await webhookKeyLimits(database.db, call.accountId, call.webhookId));
  const route = TWINS[call.twin];
  const burst = burstWindow("B", key.plan, now);
  const quota = quotaWindow("B", key.plan, now);
  const metered = (): Metered => ({
    requestId: call.requestId,
    keyId: key.keyId,
    accountId: key.accountId,
    endpointId: route.id,
    latencyMs: performance.now() - started,
    now,
  });
  const record = (status: number, code: string | null) =>
    settle(database.sql, { m: metered(), status, errorCode: code, burst, quota });
  const quotaSpent = async () => {
    await record(403, "plan_limit_exceeded");
    return new DomainError(
      "rate_limited",
      `The ${key.plan.nameA} plan's daily quota of ${quota.limit} calls is spent for this webhook's key (the same as its API twin ${route.operationId}).`,
      { retryAfterSeconds: secondsLeft(quota, now) },
    );
  };

  const [limits] = await runBatch(database.sql, [
    { m: metered(), burst, quota, status: 0, errorCode: null, record: false },
  ]);
  if (limits.limited === "burst") {
    await record(429, "rate_limit_exceeded");
    const wait = secondsLeft(burst, now);
    throw new DomainError(
      "rate_limited",
      `Per-minute limit of ${burst.limit} requests reached for this webhook's key (the same as its API twin ${route.operationId}); retry in ${wait} s.`,
      { retryAfterSeconds: wait },
    );
  }
  if (limits.limited === "quota") throw await quotaSpent();

  let result: T | undefined;
  try {
    await database.db.transaction(async (tx) => {
      result = await run({ ...database, db: tx, sql: clientOf(tx) });
      if ((await takeQuota(tx, key.keyId, quota)) === null) throw SPENT;
    });
  } catch (err) {
    if (err === SPENT) throw await quotaSpent();
    const refused = err instanceof DomainError ? fromDomainError(err) : null;
    await record(refused?.status ?? 500, refused?.code ?? "internal_error");
    throw err;
  }
  await record(route.successStatus ?? 202, null);
  return result as T;
}
