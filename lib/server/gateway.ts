/**
 * Wires database, reference data, analytics engine and pipeline; one per process. The gateway owns the process's
 * background jobs (usage partition maintenance, idempotency key expiry, webhook worker, last-used flusher, the engine's
 * ticker) and stops them in close().
 */
import "server-only";
import { openDatabase, withRequestDeadline, type Database } from "../db/client";
import { withDeadline } from "../db/deadline";
import { prepareSchema } from "../db/migrate";
import { appEnv } from "../env";
import { createPipeline } from "../api/pipeline";
import { actAs } from "../api/delegation";
import { withHttpLayer } from "../api/http/layer";
import { withRequestMetrics } from "../api/request-metrics";
import { metrics } from "../metrics/registry";
import { dueDeliveries } from "../webhooks/outbox";
import { databaseOrigins, parseOperatorOrigins } from "../api/http/origins";
import { allRoutes, endpointCatalogue } from "../api/routes";
import { seedReferenceData } from "../domain/seed";
import type { AnalyticsEngine } from "../engine/types";
import { startMarketEngine } from "../engine/engine";
import { errorFields, log } from "../log";
import { startUsagePartitionMaintenance } from "../api/usage-partitions";
import { startIdempotencyExpiry } from "../api/idempotency";
import { eventProducer } from "../webhooks/producer";
import { streamProducer } from "../engine/stream-events";
import { startWebhookWorker } from "../webhooks/worker";
import { trackCalls } from "./drain";
import { disableExpiredKeyWebhooks } from "../domain/webhook-lifecycle";
import { startSyncQueue, type SyncQueue } from "../domain/market-sync-queue";
import { syncConfig } from "../market/sync-config";
import { staleReason } from "../market/staleness";
import { deploymentTargetPolicy } from "../domain/webhook-targets";

export interface Gateway {
  handle(request: Request): Promise<Response>;
  /**
   * Answers a request the portal built, as one of the account's keys named by id (the playground: lib/api/delegation.ts):
   * the same pipeline, limits and metering as that key sent in a header. The caller has checked the key is the signed-in
   * member's to use.
   */
  handleAs(request: Request, keyId: string): Promise<Response>;
  /** The pool without deadlines: start-up, background jobs, tests' setup. */
  database: Database;
  /** The same pool with DB_DEADLINE_MS on every statement: the API pipeline's and the portal's reads and writes. */
  requestDatabase: Database;
  engine: AnalyticsEngine;
  /** Stops the background jobs, flushes last-used times and closes the pool; each step bounded, never throws. */
  close(): Promise<void>;
  /** Calls being answered right now. */
  readonly inFlight: number;
  /** Waits for the calls in flight until `by` (epoch ms), then answers the rest with 503 (shutdown). */
  drain(by: number): Promise<void>;
}

export interface GatewayOptions {
  databaseUrl: string;
  poolMax?: number;
  /** Start the real-time demo market ticker (one process in a cluster actually advances it). */
  demoTicker?: boolean;
  /** The pipeline's clock (tests' route harness injects one); the wall clock by default. */
  clock?: () => Date;
  /** br/gzip for bodies over 1 kB (the standalone server); off under `next start`, which compresses its answers itself. */
  compress?: boolean;
}

/** How long each shutdown step may take before the next one runs anyway (the database may be gone). */
const STEP_MS = 3000;

/** One shutdown step, bounded by STEP_MS; a failure is logged and the next step runs. */
const step = (name: string, run: () => Promise<unknown> | unknown) =>
  withDeadline(Promise.resolve().then(run), STEP_MS, `shutdown step ${name}`).catch((err) =>
    log.warn("shutdown step failed", { step: name, ...errorFields(err) }),
  );

/** The schema brought up to date, the reference data seeded, then the engine started; the pool closed on failure. */
async function prepareAndStartEngine(
  database: Database,
  options: GatewayOptions,
  liveProvider: boolean,
): Promise<AnalyticsEngine> {
  const env = appEnv();
  const clock = options.clock ?? (() => new Date());
  try {
    await prepareSchema(database);
    await seedReferenceData(database.db, endpointCatalogue());
    return await startMarketEngine(database, {
      seed: env.DEMO_SEED,
      demoTicker: options.demoTicker ?? env.DEMO_TICKER === "on",
      onRecompute: (
        (events, stream) => (r) =>
          Promise.all([events(r), stream(r)])
      )(eventProducer(database), streamProducer(database)),
      // On the pipeline's clock, as the data labels are.
      stale: liveProvider ? (kind, asOf, subject) => staleReason(kind, asOf, clock(), subject) : undefined,
    });
  } catch (err) {
    await database.close().catch(() => {});
    throw err;
  }
}

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const env = appEnv();
  const database = openDatabase(options.databaseUrl, { max: options.poolMax ?? 10, deadlineMs: env.DB_DEADLINE_MS });
  // MARKET_DATA_PROVIDER=massive: the live store is fed by the sync queue, and live data past its bound answers 503.
  const provider = syncConfig().MARKET_DATA_PROVIDER;
  const engine = await prepareAndStartEngine(database, options, Boolean(provider));
  const requestDatabase = withRequestDeadline(database, env.DB_DEADLINE_MS);
  const stopPartitions = startUsagePartitionMaintenance(database.sql, env.USAGE_EVENTS_RETENTION_DAYS); // now, then daily
  const stopIdempotencyExpiry = startIdempotencyExpiry(database.sql); // now, then daily
  // Every server process delivers; the outbox's row leases share the work between them.
  const webhookWorker = startWebhookWorker(database, {
    allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE_TARGETS,
    httpsOnly: env.NODE_ENV === "production",
    testLoopback: deploymentTargetPolicy().testLoopback,
    leaseMs: env.WEBHOOKS_LEASE_MS,
    concurrency: env.WEBHOOKS_CONCURRENCY,
    housekeeping: (now) => disableExpiredKeyWebhooks(database.db, now),
  });
  const syncQueue: SyncQueue | null = provider
    ? await startSyncQueue({ connectionString: env.DATABASE_OWNER_URL ?? options.databaseUrl, database })
    : null;
  const pipeline = createPipeline({
    database: requestDatabase,
    engine,
    routes: allRoutes,
    keyCacheTtlMs: env.KEY_CACHE_TTL_MS,
    configCacheTtlMs: env.CONFIG_CACHE_TTL_MS,
    clock: options.clock,
  });
  const origins = databaseOrigins(requestDatabase.db, env.CONFIG_CACHE_TTL_MS, parseOperatorOrigins(env.CORS_ORIGINS));
  const handleHttp = withRequestMetrics(
    withHttpLayer(pipeline.handle, origins, { compress: options.compress ?? true }),
  );
  const stopQueueGauges = metrics.webhooks.watchQueue(() => dueDeliveries(requestDatabase.sql, new Date()));
  log.info("gateway ready", { routes: allRoutes.length });
  let closing: Promise<void> | undefined;
  const calls = trackCalls();
  return {
    handle: (request) => calls.track(handleHttp(request)),
    handleAs: (request, keyId) => calls.track(handleHttp(actAs(request, keyId))),
    get inFlight() {
      return calls.inFlight;
    },
    drain: (by) => {
      void pipeline.closeStreams(); // open streams end with an error event; clients resume elsewhere
      return calls.settle(by);
    },
    database,
    requestDatabase,
    engine,
    close() {
      closing ??= (async () => {
        stopPartitions();
        stopIdempotencyExpiry();
        stopQueueGauges();
        pipeline.stopKeyNotices();
        await step("stream leases", () => pipeline.closeStreams());
        await step("webhook worker", () => webhookWorker.stop());
        if (syncQueue) await step("sync queue", () => syncQueue.stop());
        await step("engine", () => engine.stop());
        await step("last-used flush", () => pipeline.flushLastUsed());
        await step("pool", () => database.close());
      })();
      return closing;
    },
  };
}

const GLOBAL_KEY = Symbol.for("options-research-api.gateway");
type GlobalWithGateway = typeof globalThis & { [GLOBAL_KEY]?: Promise<Gateway> };

/** The process-wide gateway if it was started (or is starting), for the shutdown under Next. */
export function startedSharedGateway(): Promise<Gateway> | undefined {
  return (globalThis as GlobalWithGateway)[GLOBAL_KEY];
}

/** The process-wide gateway for Next's route handlers; survives module reloads in development. */
export function sharedGateway(): Promise<Gateway> {
  const g = globalThis as GlobalWithGateway;
  const running = g[GLOBAL_KEY];
  if (running) return running;
  const url = appEnv().DATABASE_URL;
  if (!url)
    return Promise.reject(new Error("DATABASE_URL is not set; start the app with `npm start`, which provides one"));
  const starting = startGateway({ databaseUrl: url, compress: false }).catch((err) => {
    delete g[GLOBAL_KEY];
    throw err;
  });
  g[GLOBAL_KEY] = starting;
  return starting;
}
