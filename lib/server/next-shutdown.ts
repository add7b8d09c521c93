/**
 * SIGTERM/SIGINT under `next start`, the same drain as the standalone server (docs/reliability.md): stop accepting,
 * answer the calls in flight (`Connection: close` on every answer from the signal on), answer 503 to API calls still
 * running at 60 % of SHUTDOWN_GRACE_MS, close idle keep-alive connections until none is left, run the gateway's
 * shutdown steps, exit 0 within the grace.
 *
 * Next keeps its HTTP server to itself and has a SIGTERM handler of its own: it closes the server, waits until every
 * connection is gone (with no bound: a keep-alive client under load never lets go), closes its internals and exits
 * 128 + signal. So this module sees Next's server through Node's `http.server.request.start` diagnostics channel, runs before Next's handler (prepended)
 * to mark the drain and keep the server's close() from cutting idle sockets a client may be writing a request on,
 * ends the connections itself, and lets Next's exit wait for the shutdown steps.
 */
import "server-only";
import { subscribe } from "node:diagnostics_channel";
import type http from "node:http";
import type { Server } from "node:http";
import { Server as NetServer } from "node:net";
import { withDeadline } from "../db/deadline";
import { errorFields, log } from "../log";
import { REQUEST_START } from "../security/peer-stamp";
import { trackConnections } from "./drain";
import type { Gateway } from "./gateway";

let installed = false;
/** Of the grace, the part for the calls in flight; the rest is for closing connections and the shutdown steps. */
const CALLS_SHARE = 0.6;
/** Kept back from the grace so the process exits 0 before the hard stop. */
const EXIT_MARGIN_MS = 200;

export function drainNextOnSignals(graceMs: number, gateway: () => Promise<Gateway> | undefined): void {
  if (installed) return;
  installed = true;
  const connections = trackConnections();
  const servers = new Set<Server>();
  // Node's documented hook, published for every request before the server's `request` event.
  subscribe(REQUEST_START, (message) => {
    const { server, response } = message as { server: Server; response: http.ServerResponse };
    servers.add(server);
    connections.onRequest(response);
  });

  let stopped: Promise<void> | undefined;
  const stop = (signal: NodeJS.Signals) => {
    if (stopped) return;
    const started = Date.now();
    connections.startDraining();
    for (const server of servers) keepIdleSocketsOnClose(server);
    setTimeout(() => {
      log.error("shutdown did not finish within SHUTDOWN_GRACE_MS; exiting", { grace_ms: graceMs });
      exit(1);
    }, graceMs).unref();
    stopped = (async () => {
      const running = await gateway()?.catch(() => undefined); // a gateway that never started has nothing to stop
      log.info("draining", { signal, in_flight: running?.inFlight ?? 0, grace_ms: graceMs });
      const answerBy = started + graceMs * CALLS_SHARE;
      await running?.drain(answerBy);
      const closeBy = Math.max(answerBy, Date.now()) + 1000;
      await Promise.all([...servers].map((server) => connections.closeAll(server, closeBy)));
      const left = Math.max(0, started + graceMs - EXIT_MARGIN_MS - Date.now());
      await withDeadline(running?.close() ?? Promise.resolve(), left, "shutdown steps").catch((err) =>
        log.warn("shutdown steps cut short", errorFields(err)),
      );
      log.info("stopped", { signal, ms: Date.now() - started });
    })();
  };
  process.prependListener("SIGTERM", () => stop("SIGTERM"));
  process.prependListener("SIGINT", () => stop("SIGINT"));

  // Next's handler exits 128 + signal once its server has closed: after a drain, that exit waits for the steps above
  // and reports the stop as the clean one it was.
  const exit = process.exit.bind(process);
  process.exit = ((code?: number) => {
    if (!stopped) return exit(code);
    void stopped.then(() => exit(code === 130 || code === 143 ? 0 : code));
  }) as typeof process.exit;
}

/**
 * http.Server.close() also closes the idle keep-alive sockets at once, and a client may be writing its next request
 * on one right now (it would see a reset); during the drain those sockets get a `Connection: close` answer instead, and
 * closeAll ends the rest.
 */
function keepIdleSocketsOnClose(server: Server): void {
  server.close = function (this: Server, callback?: (err?: Error) => void) {
    NetServer.prototype.close.call(this, callback);
    return this;
  };
}
