/** Wires database, reference data, analytics engine and pipeline; one per process. */
import "server-only";
import { openDatabase, type Database } from "../db/client";
import { runMigrations } from "../db/migrate";
import { appEnv } from "../env";
import { createPipeline } from "../api/pipeline";
import { allRoutes, endpointCatalogue } from "../api/routes";
import { seedReferenceData } from "../domain/seed";
import type { AnalyticsEngine } from "../engine/types";
import { startMarketEngine } from "../engine/engine";
import { log } from "../log";
import { flushLastUsed } from "../api/last-used";
import { eventProducer } from "../webhooks/producer";
import { startWebhookWorker } from "../webhooks/worker";

export interface Gateway {
  handle(request: Request): Promise<Response>;
  database: Database;
  engine: AnalyticsEngine;
  close(): Promise<void>;
}

export interface GatewayOptions {
  databaseUrl: string;
  poolMax?: number;
  /** Start the real-time demo market ticker (one process in a cluster actually advances it). */
  demoTicker?: boolean;
}

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const env = appEnv();
  const database = openDatabase(options.databaseUrl, { max: options.poolMax ?? 10 });
  await runMigrations(database);
  await seedReferenceData(database.db, endpointCatalogue());
  const engine = await startMarketEngine(database, {
    seed: env.DEMO_SEED,
    demoTicker: options.demoTicker ?? env.DEMO_TICKER === "on",
    onRecompute: eventProducer(database),
  });
  // Every server process delivers; the outbox's row leases share the work between them.
  const webhookWorker = startWebhookWorker(database, {
    allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE_TARGETS,
    httpsOnly: env.NODE_ENV === "production",
    leaseMs: env.WEBHOOKS_LEASE_MS,
    concurrency: env.WEBHOOKS_CONCURRENCY,
  });
  const pipeline = createPipeline({
    database,
    engine,
    routes: allRoutes,
    keyCacheTtlMs: env.KEY_CACHE_TTL_MS,
    configCacheTtlMs: env.CONFIG_CACHE_TTL_MS,
  });
  log.info("gateway ready", { routes: allRoutes.length });
  return {
    handle: pipeline.handle,
    database,
    engine,
    async close() {
      await webhookWorker.stop();
      await engine.stop();
      await flushLastUsed(database);
      await database.close();
    },
  };
}

const GLOBAL_KEY = Symbol.for("options-research-api.gateway");
type GlobalWithGateway = typeof globalThis & { [GLOBAL_KEY]?: Promise<Gateway> };

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
