/** Where the e2e server (e2e/serve.mjs) is: its port, its data directory and its database. */
import { existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { runningEmbeddedUrl } from "../../lib/db/embedded";

export const e2ePort = () => Number(process.env.E2E_PORT ?? 3100);

/** The running e2e server's data directory (recorded by e2e/serve.mjs). */
export function e2eDataDirOf(port = e2ePort()): string {
  return readFileSync(join(tmpdir(), `ora-e2e-${port}.datadir`), "utf8").trim();
}

/**
 * The URL of the database of the e2e server on `port` (e2e/serve.mjs): its own database on PostgreSQL (recorded in a
 * file), or null when it runs the embedded engine.
 */
export function e2eServerDatabaseUrl(port = e2ePort()): string | null {
  const file = join(tmpdir(), `ora-e2e-${port}.database`);
  return existsSync(file) ? readFileSync(file, "utf8").trim() : null;
}

/** The URL of the running e2e server's database: on PostgreSQL, or its embedded engine. */
export function e2eDatabaseUrl(): string {
  const own = e2eServerDatabaseUrl();
  if (own) return own;
  const dataDir = e2eDataDirOf();
  const url = runningEmbeddedUrl(join(dataDir, "pglite"));
  if (!url) throw new Error(`the e2e server's database (${dataDir}) is not running`);
  return url;
}

/** A connection to the running e2e server's database (for facts no page exposes, and checks that nothing was written). */
export function e2eDatabase(): postgres.Sql {
  return postgres(e2eDatabaseUrl(), { max: 1, onnotice: () => {} });
}
