/**
 * A truly unexpected error (an exception nothing caught, a rejection nothing handled) leaves a server in an unknown
 * state: log it on one line and exit non-zero so the supervisor starts a clean process.
 */
import { isStoreUnreachable } from "../db/deadline";
import { errorFields, log } from "../log";

let installed = false;

/**
 * postgres.js (3.4.9) rolls back a transaction whose connection has just died by writing to the gone socket, which
 * throws from a timer (`Cannot read properties of null (reading 'write')` in its connection.js). That is a known
 * leftover of a lost connection, not an unknown state: the transaction is gone with its session, and the pool renews
 * itself after the lost connection (lib/db/renewing-pool.ts).
 */
export function isDriverWriteAfterClose(err: unknown): boolean {
  return (
    err instanceof TypeError &&
    /reading 'write'/.test(err.message) &&
    /[\\/]postgres[\\/]src[\\/]connection\.js/.test(err.stack ?? "")
  );
}

/**
 * postgres.js fetches the array types on each new connection without awaiting the result: a connection lost (or a
 * retired pool destroyed) at that moment rejects with nothing to handle it (porsager/postgres#1223). Known, not fatal.
 */
export function isDriverTypeFetchLost(err: unknown): boolean {
  const query = (err as { query?: unknown } | null)?.query;
  return typeof query === "string" && query.includes("b.typarray") && isStoreUnreachable(err);
}

/** `rejections: false` where a framework owns unhandled rejections (Next logs its own and keeps serving). */
export function exitOnUnexpectedErrors(name: string, { rejections = true } = {}): void {
  if (installed) return;
  installed = true;
  const fatal = (kind: string) => (err: unknown) => {
    if (isDriverWriteAfterClose(err) || isDriverTypeFetchLost(err)) {
      log.warn(`${name}: the database driver lost a connection in its own background work; ignored`, errorFields(err));
      return;
    }
    log.error(`${name}: ${kind}; exiting`, errorFields(err));
    process.exit(1);
  };
  process.on("uncaughtException", fatal("uncaught exception"));
  if (rejections) process.on("unhandledRejection", fatal("unhandled rejection"));
}
