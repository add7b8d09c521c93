/**
 * The delivery worker. One runs in every server process; they share the outbox through row leases, so any number of
 * processes deliver each event once (again only after a failure or a lost lease). The clock is injectable for tests.
 */
import type { Database } from "../db/client";
import { errorFields, log } from "../log";
import { claimDue, recordAttempt, recordSuccesses, type ClaimedDelivery } from "./outbox";
import { signedHeaders } from "./signing";
import { createAgents, sendAttempt, type AttemptResult, type SendOptions } from "./send";
import { ATTEMPT_TIMEOUT_MS } from "./schedule";
import type { Resolver } from "./address-policy";

export interface WorkerOptions {
  allowPrivate: boolean;
  httpsOnly?: boolean;
  /** The server listens on loopback only: test webhooks may deliver to loopback (http too), live ones never. */
  testLoopback?: boolean;
  now?: () => Date;
  random?: () => number;
  resolver?: Resolver;
  /** Deliveries in flight at once in this process. */
  concurrency?: number;
  /** How long a claim is held; must exceed the 15 s attempt timeout in production. */
  leaseMs?: number;
  pollMs?: number;
  /** Book-keeping run before a background pass, at most every 30 s (the gateway ends the webhooks of expired keys). */
  housekeeping?: (now: Date) => Promise<unknown>;
}

const HOUSEKEEPING_MS = 30_000;

const LANES = 4;

type Success = { claim: ClaimedDelivery; result: AttemptResult; attemptedAt: Date };

export interface WebhookWorker {
  /** Claims and delivers everything due now, in batches, until nothing is due; returns the attempts made. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/** What a process's deliveries share. */
interface Deliveries {
  database: Database;
  options: WorkerOptions;
  now: () => Date;
  send: SendOptions;
  leaseMs: number;
  stopped: () => boolean;
}

/** One attempt; failures are recorded at once (they move the schedule), successes returned for one batched write. */
async function deliver(claim: ClaimedDelivery, { database, options, now, send }: Deliveries): Promise<Success | null> {
  const body = JSON.stringify(claim.payload);
  const attemptedAt = now();
  const headers = signedHeaders(claim.secrets, claim.eventId, Math.floor(attemptedAt.getTime() / 1000), body);
  const loopback = options.testLoopback === true && claim.env === "test";
  const result = await sendAttempt(claim.url, headers, body, loopback ? { ...send, allowLoopback: true } : send);
  if (result.ok) return { claim, result, attemptedAt };
  log.info("webhook attempt failed", {
    webhookId: claim.webhookId,
    eventId: claim.eventId,
    status: result.statusCode,
    error: result.error,
    detail: result.detail,
  });
  await recordAttempt(database.sql, claim, result, attemptedAt, now(), options.random);
  return null;
}

/** One lane: claims a batch, delivers it, records it, until nothing is due. */
async function lane(deliveries: Deliveries, size: number): Promise<number> {
  const { database, now, leaseMs } = deliveries;
  let total = 0;
  for (;;) {
    const batch = await claimDue(database.sql, now(), size, leaseMs);
    if (batch.length === 0) return total;
    const results = await Promise.all(
      batch.map((c) =>
        deliver(c, deliveries).catch((err) => void log.warn("webhook delivery bookkeeping failed", errorFields(err))),
      ),
    );
    // A lost write here only means the lease expires and the event is sent again (at least once).
    await recordSuccesses(
      database.sql,
      results.filter((x): x is Success => !!x),
      now(),
    ).catch((err) => log.warn("webhook success bookkeeping failed", errorFields(err)));
    total += batch.length;
    if (deliveries.stopped()) return total;
  }
}

/** The options' housekeeping, run at most every 30 s; its failure is logged, never thrown. */
function throttledHousekeeping(options: WorkerOptions, now: () => Date): () => Promise<void> {
  let keptAt = -Infinity;
  return async () => {
    const at = now();
    if (!options.housekeeping || at.getTime() - keptAt < HOUSEKEEPING_MS) return;
    keptAt = at.getTime();
    await options.housekeeping(at).catch((err) => log.warn("webhook housekeeping failed", errorFields(err)));
  };
}

export function startWebhookWorker(
  database: Database,
  options: WorkerOptions & { autoStart?: boolean },
): WebhookWorker {
  const now = options.now ?? (() => new Date());
  const concurrency = options.concurrency ?? 16;
  const pollMs = options.pollMs ?? 500;
  const agents = createAgents();
  const send: SendOptions = {
    allowPrivate: options.allowPrivate,
    httpsOnly: options.httpsOnly,
    resolver: options.resolver,
    agents,
  };
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let loop: Promise<unknown> = Promise.resolve();
  const deliveries: Deliveries = {
    database,
    options,
    now,
    send,
    leaseMs: options.leaseMs ?? ATTEMPT_TIMEOUT_MS * 4,
    stopped: () => stopped,
  };

  const runOnce = () => lane(deliveries, concurrency);
  // In the background several lanes share the concurrency, so one slow endpoint holds up only its own lane's batch.
  const laneSize = Math.max(1, Math.ceil(concurrency / LANES));
  const runLanes = async () =>
    (await Promise.all(Array.from({ length: LANES }, () => lane(deliveries, laneSize)))).reduce((a, b) => a + b, 0);
  const housekeeping = throttledHousekeeping(options, now);

  const tick = () => {
    if (stopped) return;
    loop = housekeeping()
      .then(runLanes)
      .catch((err) => log.warn("webhook worker pass failed", errorFields(err)))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, pollMs);
      });
  };
  if (options.autoStart !== false) timer = setTimeout(tick, 0);

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await loop;
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
