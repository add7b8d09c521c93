/** Finds the database for a one-off process (CLI): DATABASE_URL, else the running app's embedded engine, else its own. */
import "server-only";
import { join, resolve } from "node:path";
import { appEnv } from "../env";
import { openDatabase, type Database } from "./client";
import { runningEmbeddedUrl, startEmbeddedDatabase } from "./embedded";
import { prepareSchema } from "./migrate";

export async function connectForTool(): Promise<Database> {
  const env = appEnv();
  const pgliteDir = join(resolve(env.DATA_DIR), "pglite");
  if (env.DATABASE_URL) return migrated(openDatabase(env.DATABASE_URL, { max: 4 }), null);
  const running = runningEmbeddedUrl(pgliteDir);
  if (running) return migrated(openDatabase(running, { max: 4 }), null);
  const embedded = await startEmbeddedDatabase(pgliteDir);
  return migrated(openDatabase(embedded.url, { max: 4 }), () => embedded.stop());
}

async function migrated(database: Database, stopEngine: (() => Promise<void>) | null): Promise<Database> {
  await prepareSchema(database);
  if (!stopEngine) return database;
  return {
    ...database,
    close: async () => {
      await database.close();
      await stopEngine();
    },
  };
}
