/**
 * Wires database, reference data, analytics engine and pipeline; one per process. The gateway owns the process's
 * background jobs (usage partition maintenance, idempotency key expiry, webhook worker, last-used flusher, the engine's
 * ticker) and stops them in close().
 */
import "server-only";
import { openDatabase, withRequestDeadline, type Database } from "../db/client";
import { withDeadline } from "../db/deadline";
import { runMigrations } from "../db/migrate";
import { appEnv } from "../env";
import { createPipeline } from "../api/pipeline";
import { allRoutes, endpointCatalogue } from "../api/routes";
import { seedReferenceData } from "../domain/seed";
import type { AnalyticsEngine } from "../engine/types";
import { startMarketEngine } from "../engine/engine";
import { errorFields, log } from "../log";
import { flushLastUsed } from "../api/last-used";
import { startUsagePartitionMaintenance } from "../api/usage-partitions";
import { startIdempotencyExpiry } from "../api/idempotency";
import { eventProducer } from "../webhooks/producer";
import { startWebhookWorker } from "../webhooks/worker";

export interface Gateway {
  handle(request: Request): Promise<Response>;
  /** The pool without deadlines: start-up, background jobs, tests' setup. */
  database: Database;
  /** The same pool with DB_DEADLINE_MS on every statement: the API pipeline's and the portal's reads and writes. */
  requestDatabase: Database;
  engine: AnalyticsEngine;
  /** Stops the background jobs, flushes last-used times and closes the pool; each step bounded, never throws. */
  close(): Promise<void>;
  /** From now on every answer carries `Connection: close`; resolves when no call is in flight or at `by` (epoch ms). */
  drain(by: number): Promise<void>;
}

export interface GatewayOptions {
  databaseUrl: string;
  poolMax?: number;
  /** Start the real-time demo market ticker (one process in a cluster actually advances it). */
  demoTicker?: boolean;
}

/** How long each shutdown step may take before the next one runs anyway (the database may be gone). */
const STEP_MS = 3000;

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const env = appEnv();
  const database = openDatabase(options.databaseUrl, { max: options.poolMax ?? 10, deadlineMs: env.DB_DEADLINE_MS });
  let engine: AnalyticsEngine;
  try {
    await runMigrations(database);
    await seedReferenceData(database.db, endpointCatalogue());
    engine = await startMarketEngine(database, {
      seed: env.DEMO_SEED,
      demoTicker: options.demoTicker ?? env.DEMO_TICKER === "on",
      onRecompute: eventProducer(database),
    });
  } catch (err) {
    await database.close().catch(() => {});
    throw err;
  }
  const requestDatabase = withRequestDeadline(database, env.DB_DEADLINE_MS);
  const stopPartitions = startUsagePartitionMaintenance(database.sql, env.USAGE_EVENTS_RETENTION_DAYS); // now, then daily
  const stopIdempotencyExpiry = startIdempotencyExpiry(database.sql); // now, then daily
  // Every server process delivers; the outbox's row leases share the work between them.
  const webhookWorker = startWebhookWorker(database, {
    allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE_TARGETS,
    httpsOnly: env.NODE_ENV === "production",
    leaseMs: env.WEBHOOKS_LEASE_MS,
    concurrency: env.WEBHOOKS_CONCURRENCY,
  });
  const pipeline = createPipeline({
    database: requestDatabase,
    engine,
    routes: allRoutes,
    keyCacheTtlMs: env.KEY_CACHE_TTL_MS,
    configCacheTtlMs: env.CONFIG_CACHE_TTL_MS,
  });
  log.info("gateway ready", { routes: allRoutes.length });
  let closing: Promise<void> | undefined;
  const step = (name: string, run: () => Promise<unknown> | unknown) =>
    withDeadline(Promise.resolve().then(run), STEP_MS, `shutdown step ${name}`).catch((err) =>
      log.warn("shutdown step failed", { step: name, ...errorFields(err) }),
    );
  let inFlight = 0;
  let draining = false;
  async function handle(request: Request): Promise<Response> {
    inFlight++;
    try {
      const response = await pipeline.handle(request);
      if (draining) response.headers.set("connection", "close"); // keep-alive clients let go during a drain
      return response;
    } finally {
      inFlight--;
    }
  }
  return {
    handle,
    async drain(by) {
      draining = true;
      while (inFlight > 0 && Date.now() < by) await new Promise((r) => setTimeout(r, 20));
    },
    database,
    requestDatabase,
    engine,
    close() {
      closing ??= (async () => {
        stopPartitions();
        stopIdempotencyExpiry();
        await step("webhook worker", () => webhookWorker.stop());
        await step("engine", () => engine.stop());
        await step("last-used flush", () => flushLastUsed(requestDatabase));
        await step("pool", () => database.close());
      })();
      return closing;
    },
  };
}

const GLOBAL_KEY = Symbol.for("options-research-api.gateway");
type GlobalWithGateway = typeof globalThis & { [GLOBAL_KEY]?: Promise<Gateway> };

/**
 * Under Next (whose own SIGTERM handler stops accepting, waits for open connections and exits): on SIGTERM/SIGINT,
 * let the calls in flight finish, then run the gateway's shutdown steps. Next's handler exits as soon as its server
 * is closed, so until the steps are done (or the grace is spent) its process.exit waits for them.
 */
export function closeSharedGatewayOnSignals(graceMs: number): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const started = (globalThis as GlobalWithGateway)[GLOBAL_KEY];
    if (!started) return;
    const steps = started
      .then(async (gateway) => {
        log.info("draining", { signal });
        await gateway.drain(Date.now() + graceMs * 0.6);
        await gateway.close();
        log.info("gateway stopped", { signal });
      })
      .catch(() => {}); // a gateway that never started has nothing to stop
    const done = withDeadline(steps, graceMs, "gateway shutdown").catch((err) =>
      log.warn("gateway shutdown cut short", errorFields(err)),
    );
    const exit = process.exit.bind(process);
    process.exit = ((code?: number) => void done.finally(() => exit(code))) as typeof process.exit;
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

/** The process-wide gateway for Next's route handlers; survives module reloads in development. */
export function sharedGateway(): Promise<Gateway> {
  const g = globalThis as GlobalWithGateway;
  const running = g[GLOBAL_KEY];
  if (running) return running;
  const url = appEnv().DATABASE_URL;
  if (!url)
    return Promise.reject(new Error("DATABASE_URL is not set; start the app with `npm start`, which provides one"));
  const starting = startGateway({ databaseUrl: url }).catch((err) => {
    delete g[GLOBAL_KEY];
    throw err;
  });
  g[GLOBAL_KEY] = starting;
  return starting;
}
