/**
 * A throwaway PostgreSQL cluster on its own port, for tests that stop and restart the database (never the shared
 * server on 5432). initdb refuses to run as root, so as root the cluster belongs to the `postgres` OS user.
 */
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { promisify } from "node:util";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { freePort } from "../../lib/util/free-port";

export interface PgCluster {
  port: number;
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url(database?: string): string;
  /**
   * Asynchronous, so a test's own load keeps running and timing its calls while pg_ctl works (a synchronous stop or
   * start blocks the test's event loop for seconds on a busy machine and adds that to every call in flight).
   */
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): void;
}

/** Why a cluster cannot be made here, or null when it can. */
export function clusterUnavailableReason(): string | null {
  if (!binDir()) return "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (initdb, pg_ctl)";
  if (userInfo().uid === 0 && spawnSync("id", ["-u", "postgres"]).status !== 0)
    return "running as root without a `postgres` OS user to own the cluster";
  return null;
}

function binDir(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], "bin") : null;
}

export async function createPgCluster(): Promise<PgCluster> {
  const bin = binDir();
  if (!bin) throw new Error(clusterUnavailableReason() ?? "no PostgreSQL binaries");
  const asRoot = userInfo().uid === 0;
  const dir = mkdtempSync(join(tmpdir(), "orapi-pg-"));
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
    chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[]) => {
    const argv = asRoot ? ["-u", "postgres", "--", join(bin, tool), ...args] : args;
    const r = spawnSync(asRoot ? "runuser" : join(bin, tool), argv, { cwd: dir, encoding: "utf8", timeout: 60_000 });
    if (r.status !== 0) throw new Error(`${tool} failed (${r.status}): ${r.stderr || r.stdout}`);
  };
  const runAsync = async (tool: string, args: string[]) => {
    const argv = asRoot ? ["-u", "postgres", "--", join(bin, tool), ...args] : args;
    await promisify(execFile)(asRoot ? "runuser" : join(bin, tool), argv, { cwd: dir, timeout: 60_000 }).catch(
      (err: { stderr?: string; stdout?: string; code?: unknown }) => {
        throw new Error(`${tool} failed (${err.code}): ${err.stderr || err.stdout}`);
      },
    );
  };
  const data = join(dir, "data");
  const port = await freePort();
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const cluster: PgCluster = {
    port,
    url: (database = "postgres") => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start: () => runAsync("pg_ctl", ["-D", data, "-o", options, "-l", join(dir, "log"), "-w", "-t", "30", "start"]),
    stop: () => runAsync("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "30", "stop"]),
    destroy() {
      try {
        run("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "30", "stop"]);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}
