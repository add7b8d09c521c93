import "server-only";
import postgres from "postgres";
import { drizzle, type PostgresJsQueryResultHKT } from "drizzle-orm/postgres-js";
import type { PgDatabase } from "drizzle-orm/pg-core";
import * as schema from "../../db/schema";
import { sqlWithDeadline } from "./deadline";
import { renewingPool } from "./renewing-pool";
import { log } from "../log";
import { metrics } from "../metrics/registry";

/** The database or a transaction on it: both satisfy this type, so a handler runs unchanged inside the pipeline's transaction. */
export type Db = PgDatabase<PostgresJsQueryResultHKT, typeof schema>;
export interface Database {
  sql: postgres.Sql;
  db: Db;
  close(): Promise<void>;
  /** Where the pool connects (set by openDatabase), for a job that needs a session of its own. */
  url?: string;
}

export interface DatabaseOptions {
  max?: number;
  /** Connect timeout: DB_DEADLINE_MS in the servers; one-off tools wait longer (10 s). */
  deadlineMs?: number;
}

const TOOL_CONNECT_TIMEOUT_MS = 10_000;

/**
 * Driver options that notice a lost database at once and come back quickly (docs/reliability.md): a connect attempt
 * gives up after the deadline, TCP keepalive probes an idle socket after 5 s, and a reconnect waits at most 250 ms
 * (the driver's default grows to 20 s, during which queued queries wait on a connection that is not trying).
 */
function driverOptions(options: DatabaseOptions) {
  return {
    idle_timeout: 30,
    connect_timeout: (options.deadlineMs ?? TOOL_CONNECT_TIMEOUT_MS) / 1000,
    keep_alive: 5,
    backoff: (retries: number) => Math.min(0.025 * 2 ** retries, 0.25),
    onnotice: () => {},
    // Prepared statements are safe on both engines; the socket server keeps one session per connection.
    prepare: true,
  };
}

/**
 * Opens a pool; callers own its lifetime. Never called at import time. After a connection error the pool starts
 * afresh, and again once the database answers (lib/db/renewing-pool.ts).
 */
export function openDatabase(url: string, options: DatabaseOptions = {}): Database {
  const max = options.max ?? 10;
  const sql = renewingPool(() => postgres(url, { max, ...driverOptions(options) }), {
    onRenew: (reason) => {
      log.info("database pool renewed", { reason });
      metrics.db.renewed(reason);
    },
  });
  const db = drizzle(sql, { schema });
  metrics.db.poolOpened(max);
  let closed = false;
  const close = () => {
    if (!closed) metrics.db.poolClosed(max);
    closed = true;
    return sql.end({ timeout: 5 });
  };
  return { sql, db, close, url };
}

/** One connection of its own (a session-level advisory lock lives and dies with it); null when the URL is unknown. */
export function openSession(database: Database, options: DatabaseOptions = {}): postgres.Sql | null {
  return database.url ? postgres(database.url, { max: 1, ...driverOptions(options), idle_timeout: 0 }) : null;
}

/**
 * The same pool for the request path: every statement and transaction has a deadline (docs/reliability.md). Closing
 * it closes the pool.
 */
export function withRequestDeadline(database: Database, deadlineMs: number): Database {
  const sql = sqlWithDeadline(database.sql, deadlineMs);
  return { sql, db: drizzle(sql, { schema }), close: database.close, url: database.url };
}
