/** Where the e2e server (e2e/serve.mjs) is: its port, its data directory and its database. */
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { runningEmbeddedUrl } from "../../lib/db/embedded";

export const e2ePort = () => Number(process.env.E2E_PORT ?? 3100);

/** The running e2e server's data directory (recorded by e2e/serve.mjs). */
export function e2eDataDirOf(port = e2ePort()): string {
  return readFileSync(join(tmpdir(), `ora-e2e-${port}.datadir`), "utf8").trim();
}

/** The URL of the running e2e server's embedded database. */
export function e2eDatabaseUrl(): string {
  const dataDir = e2eDataDirOf();
  const url = runningEmbeddedUrl(join(dataDir, "pglite"));
  if (!url) throw new Error(`the e2e server's database (${dataDir}) is not running`);
  return url;
}

/** A connection to the running e2e server's embedded database (for facts no page exposes, and checks that nothing was written). */
export function e2eDatabase(): postgres.Sql {
  return postgres(e2eDatabaseUrl(), { max: 1, onnotice: () => {} });
}
