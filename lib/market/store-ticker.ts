/**
 * Advances the demo market in real time while the app runs. Exactly one process per database does it: the one
 * holding a session advisory lock on a reserved connection; the others retry the lock every interval and take over
 * if the leader's connection goes away.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { errorFields, log } from "../log";
import { advanceDemoMarket, seedDemoMarket } from "./demo-market-writer";
import { DAY_MS } from "./demo/calendar";

/** Leadership of the demo ticker; distinct from the per-transaction write lock. */
export const DEMO_TICKER_LOCK = 727_102;
/** A store older than this is reseeded rather than replayed tick by tick. */
const MAX_CATCH_UP_MS = 3 * DAY_MS;

export interface DemoTickerOptions {
  seed: number | string;
  intervalMs?: number;
  now?: () => number;
}

/** Where the stored demo market stands: the newest chain snapshot of the index (one indexed lookup). */
async function storedAsOf(database: Database): Promise<number | null> {
  const rows = await database.db.execute<{ as_of: string | null }>(
    sql`select max(as_of)::text as as_of from option_quotes where env = 'demo' and symbol = 'SPX'`,
  );
  const v = rows[0]?.as_of;
  return v ? Date.parse(v.replace(" ", "T").replace(/\+00$/, "Z")) : null;
}

export function startDemoTicker(database: Database, options: DemoTickerOptions): () => Promise<void> {
  const intervalMs = options.intervalMs ?? 5000;
  const now = options.now ?? Date.now;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let lockConn: Awaited<ReturnType<Database["sql"]["reserve"]>> | null = null;
  let from: number | null = null;
  let running: Promise<void> = Promise.resolve();

  async function lead(): Promise<boolean> {
    if (lockConn) return true;
    const conn = await database.sql.reserve();
    try {
      const [row] = await conn`select pg_try_advisory_lock(${DEMO_TICKER_LOCK}) as ok`;
      if (row.ok) {
        lockConn = conn;
        from = null; // another leader may have advanced the store meanwhile
        return true;
      }
    } catch (err) {
      conn.release();
      throw err;
    }
    conn.release();
    return false;
  }

  async function tick(): Promise<void> {
    if (!(await lead())) return;
    const to = now();
    if (from === null) {
      const stored = await storedAsOf(database);
      if (stored === null || to - stored > MAX_CATCH_UP_MS) {
        const r = await seedDemoMarket(database.db, { seed: options.seed, now: to });
        log.info("demo market reseeded by ticker", { as_of: r.asOf.toISOString(), write_ms: r.writeMs });
        from = to;
        return;
      }
      from = stored;
    }
    if (to <= from) return;
    await advanceDemoMarket(database.db, { seed: options.seed, from, to });
    from = to;
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick()
        .catch(async (err) => {
          log.warn("demo ticker failed; retrying", errorFields(err));
          // A broken lock connection loses leadership; drop it so the next tick competes again.
          const conn = lockConn;
          lockConn = null;
          from = null;
          conn?.release();
        })
        .finally(schedule);
    }, intervalMs);
    timer.unref?.();
  }

  schedule();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await running;
    const conn = lockConn;
    lockConn = null;
    if (conn) {
      await conn`select pg_advisory_unlock(${DEMO_TICKER_LOCK})`.catch(() => {});
      conn.release();
    }
  };
}
