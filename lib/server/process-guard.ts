/**
 * A truly unexpected error (an exception nothing caught, a rejection nothing handled) leaves a server in an unknown
 * state: log it on one line and exit non-zero so the supervisor starts a clean process.
 */
import { errorFields, log } from "../log";

let installed = false;

/** `rejections: false` where a framework owns unhandled rejections (Next logs its own and keeps serving). */
export function exitOnUnexpectedErrors(name: string, { rejections = true } = {}): void {
  if (installed) return;
  installed = true;
  const fatal = (kind: string) => (err: unknown) => {
    log.error(`${name}: ${kind}; exiting`, errorFields(err));
    process.exit(1);
  };
  process.on("uncaughtException", fatal("uncaught exception"));
  if (rejections) process.on("unhandledRejection", fatal("unhandled rejection"));
}
