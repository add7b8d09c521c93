/**
 * The embedded engine: PGlite (PostgreSQL compiled to WASM) served over the PostgreSQL wire protocol on loopback,
 * so the app speaks one driver (`postgres`) to both engines. One process owns a data directory at a time; it records
 * its address in `owner.json` so other processes (the CLI) connect to it instead of opening the directory.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

interface Owner {
  pid: number;
  url: string;
}

const ownerFile = (dir: string) => join(dir, "owner.json");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The address of the process that owns `dataDir`, if one is running. */
export function runningEmbeddedUrl(dataDir: string): string | null {
  const file = ownerFile(resolve(dataDir));
  if (!existsSync(file)) return null;
  try {
    const owner = JSON.parse(readFileSync(file, "utf8")) as Owner;
    return owner.pid !== process.pid && alive(owner.pid) ? owner.url : null;
  } catch {
    return null;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolvePort(port));
    });
  });
}

export async function startEmbeddedDatabase(dataDir: string, port?: number): Promise<EmbeddedDatabase> {
  const dir = resolve(dataDir);
  const other = runningEmbeddedUrl(dir);
  if (other) throw new Error(`the embedded database in ${dir} is already open by another process (${other}); stop it first`);
  mkdirSync(dir, { recursive: true });
  // Imported here, not at module load: Next's build workers must never open the data directory.
  const { PGlite } = await import("@electric-sql/pglite");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  const db = await PGlite.create(join(dir, "pgdata"));
  const listenPort = port ?? (await freePort());
  const server = new PGLiteSocketServer({ db, port: listenPort, host: "127.0.0.1", maxConnections: 32 });
  await server.start();
  const url = `postgres://postgres@127.0.0.1:${listenPort}/postgres`;
  writeFileSync(ownerFile(dir), JSON.stringify({ pid: process.pid, url } satisfies Owner));
  let stopped = false;
  return {
    url,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      await db.close();
      rmSync(ownerFile(dir), { force: true });
    },
  };
}
