import "server-only";
import postgres from "postgres";
import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import * as schema from "../../db/schema";

export type Db = PostgresJsDatabase<typeof schema>;
export interface Database {
  sql: postgres.Sql;
  db: Db;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  max?: number;
}

/** Opens a pool; callers own its lifetime. Never called at import time. */
export function openDatabase(url: string, options: DatabaseOptions = {}): Database {
  const sql = postgres(url, {
    max: options.max ?? 10,
    idle_timeout: 30,
    connect_timeout: 10,
    onnotice: () => {},
    // Prepared statements are safe on both engines; the socket server keeps one session per connection.
    prepare: true,
  });
  const db = drizzle(sql, { schema });
  return { sql, db, close: () => sql.end({ timeout: 5 }) };
}
