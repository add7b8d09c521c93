/**
 * A fresh PostgreSQL database per test file on the machine's server (TEST_PG_URL, default
 * postgres://postgres@127.0.0.1:5432/test), migrated, and dropped afterwards.
 */
import postgres from "postgres";
import { randomBytes } from "node:crypto";
import { openDatabase, type Database } from "../../lib/db/client";
import { runMigrations } from "../../lib/db/migrate";

export const adminUrl = process.env.TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export interface TestDatabase extends Database {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(label = "t"): Promise<TestDatabase> {
  const name = `orapi_${label.replace(/[^a-z0-9]/gi, "").toLowerCase()}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = openDatabase(url.toString());
  await runMigrations(database);
  return {
    ...database,
    url: url.toString(),
    name,
    async drop() {
      await database.close();
      const a = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists "${name}" with (force)`);
      await a.end();
    },
  };
}
