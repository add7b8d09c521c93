/** The operator CLI against the e2e server's database (e2e/serve.mjs records where it is). */
import { execFile } from "node:child_process";
import { bundled } from "./bundles";
import { e2eDataDirOf, e2eServerDatabaseUrl } from "./e2e-env";

/**
 * Runs the operator CLI (`npm run cli -- args`, as its bundle: e2e/global-setup.ts builds it once per run) with the e2e
 * server's DATA_DIR and database; resolves with its exit code and output.
 */
export function e2eCli(
  baseURL: string | undefined,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const port = Number(new URL(baseURL ?? "http://127.0.0.1:3100").port);
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: e2eDataDirOf(port), LOG_LEVEL: "warn" };
  // The server's own database on PostgreSQL, as its owner (an operator's CLI), else its embedded engine (DATA_DIR).
  const database = e2eServerDatabaseUrl(port);
  if (database) env.DATABASE_URL = database;
  else delete env.DATABASE_URL;
  delete env.DATABASE_OWNER_URL;
  delete env.AUTH_SECRET; // the app's own secret is in the data directory
  return new Promise((resolve) => {
    execFile(process.execPath, [bundled("cli"), ...args], { env, timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Marks a user's e-mail verified with the operator CLI (`user verify`), as an operator would for a user who lost the mail. */
export async function verifyEmail(baseURL: string | undefined, email: string): Promise<void> {
  const r = await e2eCli(baseURL, "user", "verify", "--email", email);
  if (r.code !== 0) throw new Error(`user verify failed: ${r.stderr.trim()}`);
}
