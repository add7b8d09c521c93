/** Where the e2e server (e2e/serve.mjs) is: its port, the loopback SMTP port its mail goes to, and its database. */
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { runningEmbeddedUrl } from "../../lib/db/embedded";

export const e2ePort = () => Number(process.env.E2E_PORT ?? 3100);
export const e2eSmtpPort = () => Number(process.env.E2E_SMTP_PORT ?? e2ePort() + 25);

/** The URL of the running e2e server's embedded database. */
export function e2eDatabaseUrl(): string {
  const dataDir = readFileSync(join(tmpdir(), `ora-e2e-${e2ePort()}.datadir`), "utf8").trim();
  const url = runningEmbeddedUrl(join(dataDir, "pglite"));
  if (!url) throw new Error(`the e2e server's database (${dataDir}) is not running`);
  return url;
}

/** A connection to the running e2e server's embedded database (for facts no page exposes, and checks that nothing was written). */
export function e2eDatabase(): postgres.Sql {
  return postgres(e2eDatabaseUrl(), { max: 1, onnotice: () => {} });
}
