/**
 * A postgres.js pool that replaces all its connections after the database was lost (docs/reliability.md, Recovery).
 *
 * postgres.js 3.4.9 reuses its connection objects across reconnects, and a dead connection's state survives into the
 * new one:
 *   - an error the old server sent just before it closed the socket (57P01 "terminating connection due to
 *     administrator command" on every busy connection at a restart) is replayed onto the first query after the
 *     reconnect (porsager/postgres#1223, open);
 *   - a connection whose first query was cancelled at its deadline while it was still reconnecting never rejoins the
 *     pool once it connects (until its max_lifetime ends it).
 * Either way a process answers a 503 now and then, or runs on fewer connections, long after the database is back. A
 * fresh pool has neither, so this one opens a fresh pool:
 *   - at the first connection error (the old server's sockets are dropped at once, not one by one when next used);
 *   - when a statement missed its deadline before it was ever sent and nothing succeeded on the pool for a second
 *     (every connection may be stuck that way: a pool that is only busy keeps succeeding and is left alone);
 *   - again at the first success after either (the database answers again: no connection carries the outage's
 *     leftovers).
 * A retired pool finishes the statements it runs (it is ended, with a bound) and its outcomes no longer count.
 */
import type postgres from "postgres";
import { metrics } from "../metrics/registry";

/** Statements (and transactions, reservations) awaited on any pool and not settled: db_statements_in_flight. */
const pools = metrics.db.state;

/** Least time between two renewals (a renewal asked for sooner happens then); also how long a stalled pool waits. */
const RENEW_GAP_MS = 1000;
/** How long a retired pool may finish what it runs before its connections are destroyed. */
const RETIRE_TIMEOUT_S = 5;

/** The connection to the server was lost or could not be made (not a statement refused, not a deadline of ours). */
export function isConnectionLost(err: unknown): boolean {
  const cause = (err as { cause?: unknown } | null)?.cause;
  if (cause !== undefined && cause !== err && isConnectionLost(cause)) return true;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return false;
  if (code === "CONNECTION_ENDED" || code === "CONNECTION_DESTROYED") return false; // the pool was ended here
  return (
    code.startsWith("CONNECT") ||
    /^E(CONN|TIMEDOUT|PIPE|HOSTUNREACH|NETUNREACH|HOSTDOWN|AI_AGAIN|NOTFOUND)/.test(code) ||
    /^08/.test(code) || // connection exception
    code === "57P01" || // admin shutdown
    code === "57P02" || // crash shutdown
    code === "57P03" // cannot connect now (starting up)
  );
}

type RenewReason = "connection lost" | "stalled" | "recovered";

export interface RenewingPoolEvents {
  /** Called after each renewal (for the log). */
  onRenew?(reason: RenewReason): void;
}

interface DriverQuery {
  then: PromiseLike<unknown>["then"];
  /** Set by the driver when the query is written to a connection. */
  state: unknown;
}

const isDriverQuery = (x: unknown): x is DriverQuery =>
  x instanceof Promise && "canceller" in (x as object) && "state" in (x as object);

/** lib/db/deadline.ts's DeadlineError (by its code: that module builds on this one). */
const isDeadline = (err: unknown) => (err as { code?: unknown } | null)?.code === "DB_DEADLINE";

/** A new pool from `open` that keeps what was configured on `old` after it opened. */
function freshPool(open: () => postgres.Sql, old: postgres.Sql): postgres.Sql {
  const next = open();
  // Keep what was configured on the pool after it opened (drizzle's identity parsers, fetched array types).
  Object.assign(next.options.parsers, old.options.parsers);
  Object.assign(next.options.serializers, old.options.serializers);
  const options = (s: postgres.Sql) =>
    s.options as unknown as { fetch_types: boolean; shared: { typeArrayMap: Record<string, number> } };
  Object.assign(options(next).shared.typeArrayMap, options(old).shared.typeArrayMap);
  // The array types are known: no connection of the new pool fetches them again (one round trip less, and no
  // window in which a lost connection rejects the driver's own unawaited fetch).
  if (Object.keys(options(old).shared.typeArrayMap).length > 0) options(next).fetch_types = false;
  return next;
}

/** Which pool is current and when it is replaced by a fresh one (the rules above). */
class PoolRenewal {
  current: postgres.Sql;
  ended = false;
  private suspect = false; // a connection error, or a query never sent within its deadline, since the last renewal
  private lastSuccess: number; // on the current pool (or when it opened)
  private lastRenewal = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly open: () => postgres.Sql,
    private readonly events: RenewingPoolEvents,
  ) {
    this.current = open();
    this.lastSuccess = Date.now();
  }

  renew(reason: RenewReason): void {
    if (this.ended || this.timer) return;
    const wait = this.lastRenewal + RENEW_GAP_MS - Date.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.renew(reason);
      }, wait);
      this.timer.unref();
      return;
    }
    const old = this.current;
    this.current = freshPool(this.open, old);
    this.lastRenewal = this.lastSuccess = Date.now();
    old.end({ timeout: RETIRE_TIMEOUT_S }).catch(() => {});
    this.events.onRenew?.(reason);
  }

  /** `failure`: the error of a failed query or transaction; `unsent`: it missed its deadline before it was sent. */
  outcome(pool: postgres.Sql, failure?: { err: unknown; unsent?: boolean }): void {
    pools.inFlight--;
    if (pool !== this.current || this.ended) return; // a retired pool's leftovers say nothing about the current one
    if (!failure) {
      this.lastSuccess = Date.now();
      if (!this.suspect) return;
      this.suspect = false;
      this.renew("recovered");
    } else if (isConnectionLost(failure.err)) {
      if (!this.suspect) this.renew("connection lost");
      this.suspect = true;
    } else if (failure.unsent && isDeadline(failure.err)) {
      this.suspect = true; // maybe on a connection that will never rejoin the pool
      if (Date.now() - this.lastSuccess >= RENEW_GAP_MS) this.renew("stalled");
    }
  }

  /** Ends the current pool. A retired one ends within its own bound; whoever awaits its statements sees them end. */
  async end(options?: { timeout?: number }): Promise<void> {
    this.ended = true;
    clearTimeout(this.timer);
    await this.current.end(options);
  }
}

/** Watches a driver query's outcome from when it is first awaited (a fragment of another query never is). */
function watchQuery<T>(query: T, pool: postgres.Sql, renewal: PoolRenewal): T {
  if (!isDriverQuery(query)) return query;
  const then = query.then;
  let watched = false;
  // biome-ignore lint/suspicious/noThenProperty: the outcome is known only once the query runs, i.e. is awaited
  query.then = function (this: DriverQuery, onFulfilled, onRejected) {
    if (!watched) {
      watched = true;
      pools.inFlight++;
      then.call(
        this,
        () => renewal.outcome(pool),
        (err: unknown) => renewal.outcome(pool, { err, unsent: !query.state }),
      );
    }
    return then.call(this, onFulfilled, onRejected);
  } as DriverQuery["then"];
  return query;
}

function watchPromise<T>(promise: Promise<T>, pool: postgres.Sql, renewal: PoolRenewal): Promise<T> {
  pools.inFlight++;
  promise.then(
    () => renewal.outcome(pool),
    (err: unknown) => renewal.outcome(pool, { err }),
  );
  return promise;
}

/**
 * One `postgres.Sql` handle over a pool that `open` creates, renewed as described above. Queries, `unsafe`, `begin`
 * and `reserve` go to the pool current when they are made.
 */
export function renewingPool(open: () => postgres.Sql, events: RenewingPoolEvents = {}): postgres.Sql {
  const renewal = new PoolRenewal(open, events);
  const end = (options?: { timeout?: number }) => renewal.end(options);
  // Each runs on the pool current when it is called (not when the method was looked up).
  const call = (...args: unknown[]) => {
    const pool = renewal.current;
    return watchQuery((pool as unknown as (...a: unknown[]) => unknown)(...args), pool, renewal);
  };
  const unsafe = (...args: Parameters<postgres.Sql["unsafe"]>) => {
    const pool = renewal.current;
    return watchQuery(pool.unsafe(...args), pool, renewal);
  };
  const begin = (...args: unknown[]) => {
    const pool = renewal.current;
    return watchPromise((pool.begin as (...a: unknown[]) => Promise<unknown>)(...args), pool, renewal);
  };
  const reserve = () => {
    const pool = renewal.current;
    return watchPromise(pool.reserve(), pool, renewal);
  };
  const methods: Record<string | symbol, unknown> = { unsafe, begin, reserve, end, close: end };
  return new Proxy(call as unknown as postgres.Sql, {
    get(_target, prop) {
      if (Object.hasOwn(methods, prop)) return methods[prop];
      return Reflect.get(renewal.current, prop); // the driver's helpers are closures over their pool: no `this` to bind
    },
    has: (_target, prop) => Reflect.has(renewal.current, prop),
  });
}
