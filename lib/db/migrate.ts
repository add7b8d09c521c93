import { migrate } from "drizzle-orm/postgres-js/migrator";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import type { Database } from "./client";

const MIGRATIONS_LOCK = 727_001; // advisory lock id: several processes may start at once on one database
export const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), "../../db/migrations");

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
