/**
 * The durable sync queue on PostgreSQL (pg-boss 10, its own schema `pgboss`): one queue per kind, a cron schedule per
 * kind in New York time (lib/market/sync-schedule.ts). pg-boss sends each cron slot once across every process
 * (a singleton per schedule and minute), and a queue with policy 'singleton' runs at most one job of a kind at a
 * time, so any number of server processes run each scheduled job once. A job whose run failed for a passing reason
 * (429, 5xx, timeout, network) throws and is retried with exponential backoff; a 429 longer than the client waits
 * in place is retried no sooner than its Retry-After. A bad key, a malformed answer or a loop is recorded and not retried.
 */
import "server-only";
import type PgBoss from "pg-boss";
import type { Database } from "../db/client";
import { errorFields, log } from "../log";
import type { VendorFailure } from "../market/massive/client";
import { syncConfig } from "../market/sync-config";
import { inWindow, SYNC_KINDS, SYNC_TZ, type SyncKind, syncSchedule } from "../market/sync-schedule";
import { runMarketSync } from "./market-sync";

const PASSING: readonly (VendorFailure | "rejected" | null)[] = ["rate_limited", "server", "timeout", "network"];
const queueName = (kind: SyncKind) => `market-sync-${kind}`;

export interface SyncQueue {
  stop(): Promise<void>;
  /** Jobs this process ran (for tests and logs). */
  readonly ran: number;
}

export interface SyncQueueOptions {
  /** A role that may create the pgboss schema (DATABASE_OWNER_URL when set). */
  connectionString: string;
  database: Database;
  /** pg-boss cron check interval; default 30 s (tests use 1). */
  cronMonitorIntervalSeconds?: number;
  pollingIntervalSeconds?: number;
}

export async function startSyncQueue(opts: SyncQueueOptions): Promise<SyncQueue> {
  const config = syncConfig();
  const schedule = syncSchedule(config.MARKET_DATA_CRON);
  // Loaded here, not at start-up: a server without MARKET_DATA_PROVIDER never holds pg-boss and its dependencies
  // (node-postgres, cron-parser, luxon) in memory.
  const { default: Boss } = await import("pg-boss");
  const boss: PgBoss = new Boss({
    connectionString: opts.connectionString,
    schema: "pgboss",
    max: 3,
    application_name: "market-sync",
    cronMonitorIntervalSeconds: opts.cronMonitorIntervalSeconds ?? 30,
    cronWorkerIntervalSeconds: Math.min(opts.cronMonitorIntervalSeconds ?? 5, 5),
  });
  boss.on("error", (err) => log.warn("sync queue error", errorFields(err)));
  let ran = 0;
  // Starting pg-boss and creating a queue (a partition in pg-boss 10) from two processes at once deadlocks: one
  // process at a time, under an advisory lock.
  const conn = await opts.database.sql.reserve();
  try {
    await conn`select pg_advisory_lock(hashtext('market-sync-queue-setup'))`;
    await boss.start();
    for (const entry of schedule) {
      const name = queueName(entry.kind);
      if (!(await boss.getQueue(name)))
        await boss.createQueue(name, {
          name,
          policy: "singleton",
          retryLimit: 5,
          retryDelay: 30,
          retryBackoff: true,
          expireInSeconds: 15 * 60,
        });
      await boss.schedule(name, entry.cron, { kind: entry.kind }, { tz: SYNC_TZ });
    }
  } finally {
    await conn`select pg_advisory_unlock(hashtext('market-sync-queue-setup'))`.catch(() => {});
    conn.release();
  }
  for (const entry of schedule) {
    const name = queueName(entry.kind);
    await boss.work<{ kind: SyncKind; date?: string }>(
      name,
      { batchSize: 1, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2 },
      async ([job]) => {
        const now = new Date();
        if (!job.data.date && !inWindow(entry.window, now)) {
          log.debug("market sync outside its window", { kind: entry.kind });
          return { skipped: "outside window" };
        }
        ran++;
        const summary = await runMarketSync(opts.database.db, {
          kind: entry.kind,
          trigger: "schedule",
          date: job.data.date,
          now,
        });
        if (!summary.ok && PASSING.includes(summary.failure)) {
          if (summary.failure === "rate_limited" && summary.retryAfterMs) {
            // The vendor said when: one new attempt then, instead of the backoff's guess.
            await boss.send(name, job.data, { startAfter: new Date(Date.now() + summary.retryAfterMs) });
            return { ok: false, retryAfterMs: summary.retryAfterMs };
          }
          throw new Error(`market sync ${entry.kind} failed (${summary.failure}); retried with backoff`);
        }
        return { ok: summary.ok, rows: summary.fetched };
      },
    );
  }
  // Kinds no longer scheduled (an override removed) are left alone; every configured one is scheduled above.
  log.info("sync queue started", { kinds: SYNC_KINDS.length, schedule: schedule.map((e) => `${e.kind} ${e.cron}`) });
  return {
    get ran() {
      return ran;
    },
    stop: () => boss.stop({ graceful: true, timeout: 5000, wait: true }),
  };
}
