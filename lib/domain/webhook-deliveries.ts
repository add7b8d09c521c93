/** Deliveries of one webhook: list with attempts, send a test event, replay one event or every event of a time range. */
import "server-only";
import { randomBytes } from "node:crypto";
import type postgres from "postgres";
import type { Database } from "../db/client";
import { clientOf, iso } from "../db/tx";
import { DISCLAIMER } from "../contract/disclaimer";
import { enqueueEvent, TEST_EVENT, type KeyEnvName } from "../webhooks/outbox";
import { recordAudit, type Actor } from "./audit";
import { DomainError } from "./errors";
import { FINAL_CAUSES, type DisabledBy } from "./webhook-lifecycle";

import { MAX_DELIVERIES_LISTED, MAX_REPLAY_RANGE_MS } from "../contract/webhooks";

export { MAX_DELIVERIES_LISTED, MAX_REPLAY_RANGE_MS } from "../contract/webhooks";

export interface AttemptView {
  attemptedAt: string;
  statusCode: number | null;
  latencyMs: number;
  responseExcerpt: string | null;
  error: string | null;
}

export interface DeliveryView {
  deliveryId: string;
  eventId: string;
  eventType: string;
  symbol: string | null;
  status: "pending" | "succeeded" | "failed" | "cancelled";
  attemptCount: number;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
  attempts: AttemptView[];
}

interface Owned {
  id: string;
  env: KeyEnvName;
  status: string;
  disabled_by: DisabledBy | null;
  events: string[];
  symbols: string[];
  params: Record<string, unknown>;
  /** The key that registered it is active and unexpired, and the account active. */
  deliverable: boolean;
}

async function owned(sql: postgres.Sql, accountId: string, webhookId: string, now = new Date()): Promise<Owned | null> {
  const [w] = await sql<Owned[]>`
    select w.id, w.env, w.status, w.disabled_by, w.events, w.symbols, w.params,
      (k.status = 'active' and (k.expires_at is null or k.expires_at > ${iso(now)}) and a.status = 'active') as deliverable
    from webhooks w join api_keys k on k.id = w.key_id join accounts a on a.id = w.account_id
    where w.id = ${webhookId} and w.account_id = ${accountId} and w.status <> 'deleted'`;
  return w ?? null;
}

/** A webhook whose key was revoked or expired receives nothing again: no test event, no replay. */
function refuseEnded(w: Owned): void {
  if (w.disabled_by && FINAL_CAUSES.includes(w.disabled_by))
    throw new DomainError(
      "invalid",
      "The API key that registered this webhook has ended: nothing is delivered to it again (register it anew with an active key).",
    );
}

/** Newest first, each with every attempt (oldest first). null when the account has no such webhook. */
export async function listDeliveries(
  database: Database,
  accountId: string,
  webhookId: string,
  limit = 20,
): Promise<DeliveryView[] | null> {
  if (!(await owned(database.sql, accountId, webhookId))) return null;
  const rows = await database.sql<
    {
      id: string;
      event_id: string;
      type: string;
      symbol: string | null;
      status: DeliveryView["status"];
      attempts: number;
      next_attempt_at: string;
      delivered_at: string | null;
      created_at: string;
      log: AttemptView[] | null;
    }[]
  >`
    select d.id, d.event_id, e.type, e.symbol, d.status, d.attempts,
      to_json(d.next_attempt_at) #>> '{}' as next_attempt_at, to_json(d.delivered_at) #>> '{}' as delivered_at, to_json(d.created_at) #>> '{}' as created_at,
      (select json_agg(json_build_object('attemptedAt', a.attempted_at, 'statusCode', a.status_code, 'latencyMs', a.latency_ms,
                                         'responseExcerpt', a.response_excerpt, 'error', a.error) order by a.attempted_at, a.id)
       from webhook_attempts a where a.delivery_id = d.id) as log
    from webhook_deliveries d join webhook_events e on e.id = d.event_id
    where d.webhook_id = ${webhookId} and d.account_id = ${accountId}
    order by d.created_at desc, d.id limit ${Math.min(Math.max(limit, 1), MAX_DELIVERIES_LISTED)}`;
  return rows.map((r) => ({
    deliveryId: r.id,
    eventId: r.event_id,
    eventType: r.type,
    symbol: r.symbol,
    status: r.status,
    attemptCount: r.attempts,
    nextAttemptAt: r.status === "pending" ? new Date(r.next_attempt_at).toISOString() : null,
    deliveredAt: r.delivered_at ? new Date(r.delivered_at).toISOString() : null,
    createdAt: new Date(r.created_at).toISOString(),
    attempts: (r.log ?? []).map((a) => ({ ...a, attemptedAt: new Date(a.attemptedAt).toISOString() })),
  }));
}

/** Queues a `webhook.test` event for this webhook only; returns its event id (the webhook-id header). */
export async function sendTestEvent(
  database: Database,
  accountId: string,
  webhookId: string,
  actor: Actor,
  now = new Date(),
): Promise<string | null> {
  const w = await owned(database.sql, accountId, webhookId, now);
  if (!w) return null;
  refuseEnded(w);
  if (w.status !== "active")
    throw new DomainError("invalid", `The webhook is ${w.status}; only an active webhook receives test events.`);
  if (!w.deliverable)
    throw new DomainError("invalid", "The API key that registered this webhook, or its account, is not active.");
  return database.db.transaction(async (dtx) => {
    const tx = clientOf(dtx);
    const payload = {
      type: TEST_EVENT,
      timestamp: now.toISOString(),
      data: {
        webhookId,
        environment: w.env,
        message: "A test event sent on request.",
        isMockData: true,
        dataLabel: "demo",
        disclaimer: DISCLAIMER,
      },
    };
    const e = await enqueueEvent(
      tx,
      {
        env: w.env,
        type: TEST_EVENT,
        symbol: null,
        threshold: null,
        dataVersion: null,
        dedupeKey: `test:${randomBytes(12).toString("hex")}`,
        payload,
      },
      now,
    );
    // A fresh random dedupe key never collides; if it ever did, the event would not exist to deliver.
    if (!e) throw new Error("the test event was not stored");
    await tx`insert into webhook_deliveries (event_id, webhook_id, account_id, next_attempt_at, created_at)
      values (${e.eventId}, ${webhookId}, ${accountId}, ${iso(now)}, ${iso(now)})`;
    await recordAudit(dtx, {
      actor,
      accountId,
      action: "webhook.test",
      target: `webhook:${webhookId}`,
      after: { eventId: e.eventId },
    });
    return e.eventId;
  });
}

/** Starts a fresh schedule for deliveries of (event, webhook), creating it when missing; the webhook-id stays the event id. */
async function requeue(
  tx: postgres.Sql | postgres.TransactionSql,
  webhookId: string,
  accountId: string,
  eventIds: string[],
  now: Date,
): Promise<number> {
  if (eventIds.length === 0) return 0;
  const r = await tx`
    insert into webhook_deliveries (event_id, webhook_id, account_id, next_attempt_at, created_at)
    select unnest(${eventIds}::text[]), ${webhookId}, ${accountId}, ${iso(now)}, ${iso(now)}
    on conflict (event_id, webhook_id) do update set status = 'pending', attempts = 0, next_attempt_at = excluded.next_attempt_at, lease_token = null`;
  return r.count;
}

/** Replays one event this webhook received. Returns false when the event was never addressed to it. */
export async function replayEvent(
  database: Database,
  accountId: string,
  webhookId: string,
  eventId: string,
  actor: Actor,
  now = new Date(),
): Promise<boolean | null> {
  const w = await owned(database.sql, accountId, webhookId, now);
  if (!w) return null;
  refuseEnded(w);
  const [d] =
    await database.sql`select 1 from webhook_deliveries where webhook_id = ${webhookId} and event_id = ${eventId}`;
  if (!d) return false;
  return (await auditedRequeue(database, accountId, webhookId, [eventId], { eventId }, actor, now)) === 1;
}

/** Queues the events again and records the replay, in one transaction. */
function auditedRequeue(
  database: Database,
  accountId: string,
  webhookId: string,
  eventIds: string[],
  asked: Record<string, string>,
  actor: Actor,
  now: Date,
): Promise<number> {
  return database.db.transaction(async (dtx) => {
    const queued = await requeue(clientOf(dtx), webhookId, accountId, eventIds, now);
    await recordAudit(dtx, {
      actor,
      accountId,
      action: "webhook.replay",
      target: `webhook:${webhookId}`,
      after: { ...asked, queued },
    });
    return queued;
  });
}

/**
 * Replays every event of [from, to) for this webhook: those it was sent, and those it would have been sent
 * (matching its events, symbols and thresholds) while paused or disabled. Returns how many were queued.
 */
export async function replayRange(
  database: Database,
  accountId: string,
  webhookId: string,
  from: Date,
  to: Date,
  actor: Actor,
  now = new Date(),
): Promise<number | null> {
  const w = await owned(database.sql, accountId, webhookId, now);
  if (!w) return null;
  refuseEnded(w);
  if (!(from < to)) throw new DomainError("invalid", "from must be before to.");
  if (to.getTime() - from.getTime() > MAX_REPLAY_RANGE_MS)
    throw new DomainError("invalid", "A replay covers at most 31 days.");
  const p = w.params;
  const rows = await database.sql<{ id: string }[]>`
    select e.id from webhook_events e
    where e.env = ${w.env} and e.created_at >= ${iso(from)} and e.created_at < ${iso(to)} and (
      exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.webhook_id = ${webhookId})
      or (e.type = any(${w.events}) and e.symbol = any(${w.symbols}) and (
        e.type = 'no_trade.decision_changed'
        or (e.type = 'iv_rank.crossed_above' and e.threshold::numeric = ${(p.ivRankAbove as number) ?? null}::numeric)
        or (e.type = 'iv_rank.crossed_below' and e.threshold::numeric = ${(p.ivRankBelow as number) ?? null}::numeric)
        or (e.type = 'iv.day_change_exceeded' and e.threshold::numeric = ${(p.ivChangeAbove as number) ?? null}::numeric))))`;
  const asked = { from: from.toISOString(), to: to.toISOString() };
  const ids = rows.map((r) => r.id);
  return auditedRequeue(database, accountId, webhookId, ids, asked, actor, now);
}
