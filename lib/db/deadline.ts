/**
 * Deadlines on database waits. During an outage the driver may hold a query for as long as a connect attempt or a dead
 * socket lasts; a request must not: past its deadline the wait rejects with DeadlineError, the query is cancelled
 * when it can be, and the caller answers 503 (docs/reliability.md).
 */
import type postgres from "postgres";
import { isConnectionLost } from "./renewing-pool";
import { metrics } from "../metrics/registry";

export class DeadlineError extends Error {
  readonly code = "DB_DEADLINE";
  constructor(what: string, ms: number) {
    super(`${what} did not finish within ${ms} ms`);
    this.name = "DeadlineError";
  }
}

/**
 * Resolves or rejects like `promise`, or rejects with DeadlineError after `ms` (calling `onExpired` first); the timer
 * never keeps a process alive.
 */
export function withDeadline<T>(
  promise: Promise<T>,
  ms: number,
  what = "database wait",
  onExpired?: () => void,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onExpired?.();
      reject(new DeadlineError(what, ms));
    }, ms);
    timer.unref();
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

interface DriverQuery {
  then: PromiseLike<unknown>["then"];
  reject(err: unknown): void;
  /** postgres.js's cancel: its promise rejects when the server cannot be reached (Query.cancel() drops that promise). */
  canceller: ((q: DriverQuery) => Promise<void>) | null;
}

const isQuery = (x: unknown): x is DriverQuery =>
  x instanceof Promise && typeof (x as Partial<DriverQuery>).reject === "function" && "canceller" in (x as object);

/** Asks the server to cancel the statement; a failure is expected when it cannot be reached and must not go unhandled. */
function cancel(query: DriverQuery): void {
  const canceller = query.canceller;
  if (!canceller) return;
  query.canceller = null;
  try {
    Promise.resolve(canceller(query)).catch(() => {});
  } catch {
    // the driver threw synchronously: nothing to cancel
  }
}

/**
 * Arms the deadline when the query is first awaited (a query used as a fragment of another is never awaited, so never
 * armed): at expiry it rejects the caller's promise and asks the server to cancel the statement, so a batch that
 * missed its deadline does not commit later when the server can still be reached.
 */
function arm(query: DriverQuery, ms: number): void {
  const then = query.then;
  let armed = false;
  // biome-ignore lint/suspicious/noThenProperty: the deadline starts when the query is awaited, i.e. at its own then
  query.then = function (this: DriverQuery, onFulfilled, onRejected) {
    if (!armed) {
      armed = true;
      const timer = setTimeout(() => {
        metrics.db.deadline("statement");
        query.reject(new DeadlineError("database query", ms));
        cancel(query);
      }, ms);
      timer.unref();
      const clear = () => clearTimeout(timer);
      then.call(this, clear, clear);
    }
    return then.call(this, onFulfilled, onRejected);
  } as DriverQuery["then"];
}

/**
 * The same pool with a deadline on every statement awaited through it (tagged templates, `unsafe`, drizzle's queries)
 * and on every transaction started from it. Background jobs keep the plain handle: their long writes have no deadline.
 */
export function sqlWithDeadline(sql: postgres.Sql, ms: number): postgres.Sql {
  const guard = <T>(x: T): T => {
    if (isQuery(x)) arm(x, ms);
    return x;
  };
  return new Proxy(sql, {
    apply: (target, self, args) => guard(Reflect.apply(target, self, args)),
    get(target, prop, receiver) {
      if (prop === "unsafe") return (...args: Parameters<postgres.Sql["unsafe"]>) => guard(target.unsafe(...args));
      if (prop === "begin")
        return (...args: unknown[]) =>
          withDeadline(
            (target.begin as (...a: unknown[]) => Promise<unknown>)(...args),
            ms,
            "database transaction",
            () => metrics.db.deadline("transaction"),
          );
      return Reflect.get(target, prop, receiver);
    },
  });
}

/**
 * Whether an error means the store could not be reached in time (as opposed to a statement the server refused);
 * looks through a query builder's wrapper at the driver's error.
 */
export function isStoreUnreachable(err: unknown): boolean {
  if (isConnectionLost(err)) return true;
  const cause = (err as { cause?: unknown } | null)?.cause;
  if (cause !== undefined && cause !== err && isStoreUnreachable(cause)) return true;
  if (err instanceof DeadlineError) return true;
  const code = (err as { code?: unknown } | null)?.code;
  return (
    code === "CONNECTION_ENDED" || // the pool is closing (shutdown)
    code === "CONNECTION_DESTROYED" ||
    code === "57014" // cancelled at its deadline
  );
}
