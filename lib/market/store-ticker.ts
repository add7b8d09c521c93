/**
 * Advances the demo market in real time while the app runs. Exactly one process per database does it: the one
 * holding a session advisory lock on a connection of its own; the others retry the lock every interval and take over
 * if the leader's connection goes away. Every tick re-checks that its session still holds the lock, so a leader whose
 * connection was replaced (a database restart) stops ticking until it wins the lock again.
 */
import { sql } from "drizzle-orm";
import { openSession, type Database } from "../db/client";
import { errorFields, log } from "../log";
import { advanceDemoMarket, seedDemoMarket } from "./demo-market-writer";
import { DAY_MS } from "./demo/calendar";

/** Leadership of the demo ticker; distinct from the per-transaction write lock. */
export const DEMO_TICKER_LOCK = 727_102;
/** A store older than this is reseeded rather than replayed tick by tick. */
export const MAX_CATCH_UP_MS = 3 * DAY_MS;

export interface DemoTickerOptions {
  seed: number | string;
  intervalMs?: number;
  now?: () => number;
  /** Run by the leader after each write (a reseed, or an advance over (from, to]); failures are logged, not retried. */
  afterWrite?: (w: { reseeded: boolean; from: number; to: number }) => Promise<unknown>;
}

/** Where the stored demo market stands: the newest chain snapshot of the index (one indexed lookup). */
export async function storedAsOf(database: Pick<Database, "db">): Promise<number | null> {
  const rows = await database.db.execute<{ as_of: string | null }>(
    sql`select max(as_of)::text as as_of from option_quotes where env = 'demo' and symbol = 'SPX'`,
  );
  const v = rows[0]?.as_of;
  return v ? Date.parse(v.replace(" ", "T").replace(/\+00$/, "Z")) : null;
}

export function startDemoTicker(database: Database, options: DemoTickerOptions): () => Promise<void> {
  const intervalMs = options.intervalMs ?? 5000;
  const now = options.now ?? Date.now;
  // Its own connection: a lock held on a pooled connection is lost unnoticed when that socket dies, and handing a
  // dead reserved connection back to the pool crashed the driver.
  const own = openSession(database);
  const lockSql = own ?? database.sql;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let leading = false;
  let from: number | null = null;
  let running: Promise<void> = Promise.resolve();

  /** True while this session holds the lock (taking it when free); asked on every tick, on whatever session is current. */
  async function lead(): Promise<boolean> {
    const [row] = await lockSql`
      select case when exists (
        select 1 from pg_locks where locktype = 'advisory' and classid = 0 and objid::bigint = ${DEMO_TICKER_LOCK}
          and objsubid = 1 and pid = pg_backend_pid() and granted)
      then true else pg_try_advisory_lock(${DEMO_TICKER_LOCK}) end as ok`;
    if (!row.ok) {
      if (leading) log.warn("demo ticker lost its lock; another process ticks");
      leading = false;
      return false;
    }
    if (!leading) from = null; // another leader may have advanced the store meanwhile
    leading = true;
    return true;
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
        await after({ reseeded: true, from: to, to });
        return;
      }
      from = stored;
    }
    if (to <= from) return;
    await advanceDemoMarket(database.db, { seed: options.seed, from, to });
    const done = { reseeded: false, from, to };
    from = to;
    await after(done);
  }

  async function after(w: { reseeded: boolean; from: number; to: number }): Promise<void> {
    await options.afterWrite?.(w).catch((err) => log.warn("demo ticker's after-write step failed", errorFields(err)));
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick()
        .catch((err) => {
          log.warn("demo ticker failed; retrying", errorFields(err));
          from = null; // the next tick re-reads where the store stands
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
    if (leading) await lockSql`select pg_advisory_unlock(${DEMO_TICKER_LOCK})`.catch(() => {});
    leading = false;
    await own?.end({ timeout: 1 }).catch(() => {});
  };
}
