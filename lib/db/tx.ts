/**
 * Runs `fn` in a transaction, or in a savepoint when `sql` already is one (a handler inside the pipeline's
 * transaction).
 */
import "server-only";
import type postgres from "postgres";

export function inTransaction<T>(
  sql: postgres.Sql | postgres.TransactionSql,
  fn: (tx: postgres.TransactionSql) => Promise<T>,
): Promise<T> {
  if ("savepoint" in sql && typeof sql.savepoint === "function") return sql.savepoint(fn) as Promise<T>;
  return (sql as postgres.Sql).begin(fn) as Promise<T>;
}

/** The postgres.js client inside a drizzle postgres-js transaction (drizzle keeps it on the session). */
export function clientOf(tx: unknown): postgres.Sql {
  return (tx as { session: { client: postgres.Sql } }).session.client;
}

/**
 * Timestamps go to raw postgres.js queries as ISO text: drizzle replaces the driver's timestamp (and json) serializers
 * with identity ones.
 */
export const iso = (d: Date): string => d.toISOString();
