import "server-only";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { join } from "node:path";
import type { Database } from "./client";

const MIGRATIONS_LOCK = 727_001; // advisory lock id: several processes may start at once on one database
// Resolved from the working directory: every entry point (next start, tsx scripts) runs from the project root.
export const migrationsFolder = join(process.cwd(), "db/migrations");

/** Applies committed migrations, serialised across processes by a session advisory lock on one reserved connection. */
export async function runMigrations(database: Database, folder = migrationsFolder): Promise<void> {
  const conn = await database.sql.reserve();
  try {
    await conn`select pg_advisory_lock(${MIGRATIONS_LOCK})`;
    try {
      await migrate(database.db, { migrationsFolder: folder });
    } finally {
      await conn`select pg_advisory_unlock(${MIGRATIONS_LOCK})`;
    }
  } finally {
    conn.release();
  }
}
