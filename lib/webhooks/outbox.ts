/**
 * The durable outbox in PostgreSQL. An event row is written once; a delivery row per receiving webhook. Workers in
 * every process claim due deliveries with FOR UPDATE SKIP LOCKED and lease them by moving next_attempt_at forward,
 * so a process that dies mid-delivery leaves rows that come due again (at-least-once, same webhook-id).
 */
import { randomBytes } from "node:crypto";
import type postgres from "postgres";
import { DISABLE_AFTER_FAILING_MS, retryDelayMs } from "./schedule";
import type { AttemptResult } from "./send";
import { iso } from "../db/tx";
import { errorFields, log } from "../log";
import { openSigningSecret } from "./secret-store";
import { metrics, type WebhookQueue } from "../metrics/registry";

type Sql = postgres.Sql | postgres.TransactionSql;
export type KeyEnvName = "test" | "live";

/** The event type of a webhook's test delivery (the portal's "Send test event"). */
export const TEST_EVENT = "webhook.test";

export const newEventId = () => `msg_${randomBytes(12).toString("hex")}`;

export interface NewEvent {
  env: KeyEnvName;
  type: string;
  symbol: string | null;
  /** Subscription parameter the event was computed for (IV rank or IV change threshold). */
  threshold: number | null;
  dataVersion: number | null;
  dedupeKey: string;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
}

/**
 * The webhook `w` may deliver: the key that registered it is active and unexpired, its account active and on a plan with
 * webhooks (issue 30: a downgrade stops deliveries at once, before lib/domain/webhook-lifecycle.ts disables them). Checked at
 * fan-out and again at every claim, so a key revoked (or an account deactivated) after an event was queued stops it.
 */
export const keyAndAccountActive = (sql: Sql, now: Date) => sql`exists (
  select 1 from api_keys k join accounts a on a.id = k.account_id join plans p on p.id = a.plan_id
  where k.id = w.key_id and k.status = 'active' and (k.expires_at is null or k.expires_at > ${iso(now)}) and a.status = 'active'
    and p.webhooks)`;

const PARAM_OF: Record<string, string> = {
  "iv_rank.crossed_above": "ivRankAbove",
  "iv_rank.crossed_below": "ivRankBelow",
  "iv.day_change_exceeded": "ivChangeAbove",
};

/** Writes the event once (a repeat of the dedupe key writes nothing) and queues it for every matching active webhook. */
export async function enqueueEvent(
  sql: Sql,
  e: NewEvent,
  now: Date,
): Promise<{ eventId: string; deliveries: number } | null> {
  const id = newEventId();
  const inserted = await sql`
    insert into webhook_events (id, env, type, symbol, threshold, data_version, dedupe_key, payload, created_at)
    values (${id}, ${e.env}, ${e.type}, ${e.symbol}, ${e.threshold === null ? null : String(e.threshold)}, ${e.dataVersion},
            ${e.dedupeKey}, ${JSON.stringify(e.payload)}, ${iso(now)})
    on conflict (dedupe_key) do nothing returning id`;
  if (inserted.length === 0) return null;
  const param = PARAM_OF[e.type] ?? null;
  const fanned = await sql`
    insert into webhook_deliveries (event_id, webhook_id, account_id, next_attempt_at, created_at)
    select ${id}, w.id, w.account_id, ${iso(now)}, ${iso(now)} from webhooks w
    where w.env = ${e.env} and w.status = 'active' and ${e.type} = any(w.events) and ${e.symbol} = any(w.symbols)
      and (${param}::text is null or (w.params ->> ${param ?? ""})::numeric = ${e.threshold}::numeric)
      and ${keyAndAccountActive(sql, now)}
    on conflict do nothing`;
  return { eventId: id, deliveries: fanned.count };
}

export interface ClaimedDelivery {
  deliveryId: string;
  leaseToken: string;
  attempts: number;
  eventId: string;
  payload: unknown;
  webhookId: string;
  url: string;
  /** The webhook's environment: a test webhook may reach loopback when the server runs on loopback. */
  env: "test" | "live";
  secrets: string[];
}

/**
 * Claims up to `limit` due deliveries of active webhooks whose key and account are active, leases them for `leaseMs`,
 * and opens their signing secrets.
 */
export async function claimDue(sql: Sql, now: Date, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const token = randomBytes(8).toString("hex");
  const rows = await sql<
    {
      id: string;
      attempts: number;
      event_id: string;
      payload: unknown;
      webhook_id: string;
      url: string;
      env: "test" | "live";
      signing_secret: string;
      previous_secret: string | null;
    }[]
  >`
    with due as (
      select d.id from webhook_deliveries d join webhooks w on w.id = d.webhook_id
      where d.status = 'pending' and d.next_attempt_at <= ${iso(now)} and w.status = 'active' and ${keyAndAccountActive(sql, now)}
      order by d.next_attempt_at limit ${limit}
      for update of d skip locked
    ), claimed as (
      update webhook_deliveries d set next_attempt_at = ${iso(new Date(now.getTime() + leaseMs))}, lease_token = ${token}
      from due where d.id = due.id
      returning d.id, d.attempts, d.event_id, d.webhook_id
    )
    select c.id, c.attempts, c.event_id, e.payload, c.webhook_id, w.url, w.env, w.signing_secret,
      case when w.previous_secret_expires_at > ${iso(now)} then w.previous_secret end as previous_secret
    from claimed c join webhook_events e on e.id = c.event_id join webhooks w on w.id = c.webhook_id`;
  return rows.flatMap((r) => {
    const opened = (sealed: string, which: string) => {
      try {
        return openSigningSecret(sealed, r.webhook_id);
      } catch (err) {
        log.error("webhook signing secret cannot be opened", { webhookId: r.webhook_id, which, ...errorFields(err) });
        return null;
      }
    };
    const current = opened(r.signing_secret, "current");
    // Never sent unsigned: the lease runs out and the delivery comes due again (e.g. once AUTH_SECRET is right).
    if (current === null) return [];
    const previous = r.previous_secret === null ? null : opened(r.previous_secret, "previous");
    const secrets = previous === null ? [current] : [current, previous];
    const claimed: ClaimedDelivery = {
      deliveryId: r.id,
      leaseToken: token,
      attempts: r.attempts,
      eventId: r.event_id,
      payload: r.payload,
      webhookId: r.webhook_id,
      url: r.url,
      env: r.env,
      secrets,
    };
    return [claimed];
  });
}

/** Records a batch of successful attempts in one statement (the common case, and the throughput path). */
export async function recordSuccesses(
  sql: postgres.Sql,
  done: { claim: ClaimedDelivery; result: AttemptResult; attemptedAt: Date }[],
  now: Date,
): Promise<void> {
  if (done.length === 0) return;
  for (const d of done) metrics.webhooks.attempt(true, d.result.latencyMs / 1000);
  const ids = done.map((d) => d.claim.deliveryId);
  const tokens = done.map((d) => d.claim.leaseToken);
  const codes = done.map((d) => d.result.statusCode ?? 0);
  await sql`
    with a as (
      insert into webhook_attempts (delivery_id, attempted_at, status_code, latency_ms, response_excerpt)
      select u.id::uuid, u.at::timestamptz, u.code, u.ms, u.excerpt
      from unnest(${ids}::text[], ${done.map((d) => iso(d.attemptedAt))}::text[], ${codes}::int[], ${done.map((d) => d.result.latencyMs)}::int[],
                  ${done.map((d) => d.result.excerpt ?? "")}::text[]) as u(id, at, code, ms, excerpt)
    ), d as (
      update webhook_deliveries d set status = 'succeeded', attempts = d.attempts + 1, delivered_at = ${iso(now)}, last_status_code = u.code, lease_token = null
      from unnest(${ids}::text[], ${tokens}::text[], ${codes}::int[]) as u(id, token, code)
      where d.id = u.id::uuid and d.lease_token = u.token
    )
    update webhooks set failing_since = null where id = any(${[...new Set(done.map((d) => d.claim.webhookId))]}::text[]) and failing_since is not null`;
}

/**
 * Records one attempt and moves the delivery on: succeeded, the next retry, or failed when the schedule is spent.
 * A 410 disables the webhook; so does failing without a success for 5 days. A lost lease records the attempt only.
 */
export async function recordAttempt(
  sql: postgres.Sql,
  claim: ClaimedDelivery,
  result: AttemptResult,
  attemptedAt: Date,
  now: Date,
  random: () => number = Math.random,
): Promise<void> {
  metrics.webhooks.attempt(result.ok, result.latencyMs / 1000);
  await sql.begin(async (tx) => {
    // The webhook's row first, as the lifecycle cascade (lib/domain/webhook-lifecycle.ts) takes it before the
    // deliveries: one lock order, so a revocation and a failed attempt never deadlock.
    await tx`select 1 from webhooks where id = ${claim.webhookId} for update`;
    await tx`insert into webhook_attempts (delivery_id, attempted_at, status_code, latency_ms, response_excerpt, error)
             values (${claim.deliveryId}, ${iso(attemptedAt)}, ${result.statusCode}, ${result.latencyMs}, ${result.excerpt}, ${result.error})`;
    const attempts = claim.attempts + 1;
    if (result.ok) {
      await tx`update webhook_deliveries set status = 'succeeded', attempts = ${attempts}, delivered_at = ${iso(now)}, last_status_code = ${result.statusCode}, lease_token = null
               where id = ${claim.deliveryId} and lease_token = ${claim.leaseToken}`;
      await tx`update webhooks set failing_since = null where id = ${claim.webhookId} and failing_since is not null`;
      return;
    }
    const delay = retryDelayMs(attempts, random);
    await tx`update webhook_deliveries set attempts = ${attempts}, last_status_code = ${result.statusCode}, lease_token = null,
               status = ${delay === null ? "failed" : "pending"}, next_attempt_at = ${iso(delay === null ? now : new Date(now.getTime() + delay))}
             where id = ${claim.deliveryId} and lease_token = ${claim.leaseToken}`;
    if (result.statusCode === 410) {
      await disable(tx, claim.webhookId, now, "The endpoint answered 410 Gone.");
      return;
    }
    const [w] = await tx<{ since_ms: number }[]>`
      update webhooks set failing_since = coalesce(failing_since, ${iso(now)}) where id = ${claim.webhookId} and status = 'active'
      returning (extract(epoch from failing_since) * 1000)::float8 as since_ms`;
    if (w && now.getTime() - w.since_ms >= DISABLE_AFTER_FAILING_MS) {
      await disable(
        tx,
        claim.webhookId,
        now,
        `Every delivery has failed since ${new Date(w.since_ms).toISOString()} (5 days without a success).`,
      );
    }
  });
}

/** The outbox's backlog for the queue gauges: pending deliveries due now (a leased one is not due) and the oldest. */
export async function dueDeliveries(sql: Sql, now: Date): Promise<WebhookQueue> {
  const [row] = await sql<{ due: number; oldest_ms: number | null }[]>`
    select count(*)::int as due, (extract(epoch from min(next_attempt_at)) * 1000)::float8 as oldest_ms
    from webhook_deliveries where status = 'pending' and next_attempt_at <= ${iso(now)}`;
  const oldest = row?.oldest_ms ?? null;
  return { due: row?.due ?? 0, oldestDueSeconds: oldest === null ? 0 : Math.max(0, (now.getTime() - oldest) / 1000) };
}

async function disable(tx: postgres.TransactionSql, webhookId: string, now: Date, reason: string) {
  await tx`update webhooks set status = 'disabled', disabled_reason = ${reason}, status_changed_at = ${iso(now)} where id = ${webhookId} and status = 'active'`;
}
