/**
 * The embedded engine: PGlite (PostgreSQL compiled to WASM) served over the PostgreSQL wire protocol on loopback,
 * so the app speaks one driver (`postgres`) to both engines. One process owns a data directory at a time; it records
 * its address in `owner.json` so other processes (the CLI) connect to it instead of opening the directory.
 */
import "server-only";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { freePort } from "../util/free-port";
import { join, resolve } from "node:path";

export interface EmbeddedDatabase {
  url: string;
  /**
   * From now on every connection runs as EMBEDDED_APP_ROLE, a member of ora_app: the grants a deployment's application
   * has (no TRUNCATE or ALTER of audit_log, no session_replication_role). Call it after migrating. It is not a
   * boundary: PGlite's one session was opened by its superuser, which any SQL may switch back to (docs/security.md).
   */
  runAsApp(): Promise<void>;
  stop(): Promise<void>;
}

export const EMBEDDED_APP_ROLE = "ora_embedded_app";

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

export async function startEmbeddedDatabase(dataDir: string, port?: number): Promise<EmbeddedDatabase> {
  const dir = resolve(dataDir);
  const other = runningEmbeddedUrl(dir);
  if (other)
    throw new Error(`the embedded database in ${dir} is already open by another process (${other}); stop it first`);
  mkdirSync(dir, { recursive: true });
  // Imported here, not at module load: Next's build workers must never open the data directory.
  const { PGlite } = await import("@electric-sql/pglite");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  const db = await PGlite.create(join(dir, "pgdata"));
  const listenPort = port ?? (await freePort());
  const server = new PGLiteSocketServer({ db, port: listenPort, host: "127.0.0.1", maxConnections: 32 });
  makeBatchesAtomic(server as unknown as { queryQueue: QueryQueue });
  await server.start();
  const url = `postgres://postgres@127.0.0.1:${listenPort}/postgres`;
  writeFileSync(ownerFile(dir), JSON.stringify({ pid: process.pid, url } satisfies Owner));
  let stopped = false;
  return {
    url,
    async runAsApp() {
      await db.exec(
        `DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${EMBEDDED_APP_ROLE}') THEN ` +
          `CREATE ROLE ${EMBEDDED_APP_ROLE} LOGIN IN ROLE ora_app; END IF; END $$; ` +
          `SET SESSION AUTHORIZATION ${EMBEDDED_APP_ROLE};`,
      );
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      await db.close();
      rmSync(ownerFile(dir), { force: true });
    },
  };
}

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  onData(data: Uint8Array): void;
  resolve(bytes: number): void;
  reject(err: unknown): void;
}
interface QueryQueue {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  db: {
    isInTransaction(): boolean;
    runExclusive<T>(fn: () => Promise<T>): Promise<T>;
    execProtocolRawStream(m: Uint8Array, o: { onRawData(d: Uint8Array): void }): Promise<unknown>;
  };
  processQueue(): Promise<void>;
  clearTransactionIfNeeded(handlerId: number): Promise<void>;
}

// Extended-query messages that leave a batch open until the client's Sync ('S').
const OPENS_BATCH = new Set([0x50, 0x42, 0x44, 0x45, 0x43, 0x48]); // P B D E C H
const SYNC = 0x53;

/**
 * pglite-socket 0.2.17 serialises connections onto one PGlite per protocol *message*, keeping a connection's messages
 * together only inside a transaction. Outside one, another connection's Parse can replace the unnamed statement between
 * a client's Parse and Bind ("unnamed prepared statement does not exist", or worse, someone else's statement executed).
 * This keeps every connection's extended-query batch, up to its Sync, together as well.
 */
function makeBatchesAtomic(server: { queryQueue: QueryQueue }): void {
  const q = server.queryQueue;
  let batchOpen = false;
  q.processQueue = async function processQueue(this: QueryQueue) {
    if (this.processing || this.queue.length === 0) return;
    this.processing = true;
    while (this.queue.length > 0) {
      let next: QueuedMessage | undefined;
      if ((batchOpen || this.db.isInTransaction()) && this.lastHandlerId !== null) {
        const i = this.queue.findIndex((m) => m.handlerId === this.lastHandlerId);
        if (i === -1) break; // wait for that connection's next message
        next = this.queue.splice(i, 1)[0];
      } else next = this.queue.shift();
      if (!next) break;
      let bytes = 0;
      const item = next;
      try {
        await this.db.runExclusive(() =>
          this.db.execProtocolRawStream(item.message, { onRawData: (d) => ((bytes += d.length), item.onData(d)) }),
        );
      } catch (err) {
        item.reject(err);
        batchOpen = false;
        this.processing = false;
        return;
      }
      this.lastHandlerId = item.handlerId;
      const type = item.message[0];
      if (type === SYNC) batchOpen = false;
      else if (OPENS_BATCH.has(type)) batchOpen = true;
      item.resolve(bytes);
    }
    this.processing = false;
  };
  const clear = q.clearTransactionIfNeeded.bind(q);
  q.clearTransactionIfNeeded = async (handlerId: number) => {
    if (q.lastHandlerId === handlerId) batchOpen = false; // the connection went away mid-batch
    await clear(handlerId);
    await q.processQueue();
  };
}
