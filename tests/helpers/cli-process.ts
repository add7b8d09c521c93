/** `npm run -s cli -- …` as an operator runs it, in a child process against the given database. */
import { execFile } from "node:child_process";
import { bundled } from "./bundles";

export function runCli(
  databaseUrl: string,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [bundled("cli"), ...args],
      { env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "warn" }, timeout: 120_000 },
      (err, stdout, stderr) => {
        const exit = (err as { code?: unknown } | null)?.code;
        if (err && typeof exit !== "number") return reject(err);
        resolve({ code: err ? (exit as number) : 0, stdout, stderr });
      },
    );
  });
}
