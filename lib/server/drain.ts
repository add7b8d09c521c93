/**
 * Graceful drain for a Node HTTP server: counts the calls in flight, marks every answer given while draining
 * `Connection: close`, and on request answers whatever is still in flight with a 503 rather than resetting it.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { Server as NetServer } from "node:net";
import { shuttingDownResponse } from "./unavailable";

export interface Drain {
  /** Wraps the request listener: while draining, answers carry `Connection: close` and the socket closes after them. */
  listener(
    inner: (req: IncomingMessage, res: ServerResponse) => unknown,
  ): (req: IncomingMessage, res: ServerResponse) => void;
  /** Tracks one call; its answer can be replaced by a 503 when the grace runs out. */
  track(answer: Promise<Response>): Promise<Response>;
  readonly draining: boolean;
  readonly inFlight: number;
  /**
   * Stops accepting connections, waits for the calls in flight until `answerBy` (epoch ms), answers the rest with
   * 503, then closes every connection once its answer is written.
   */
  drain(server: Server, answerBy: number): Promise<void>;
}

const POLL_MS = 20;

const connections = (server: Server) =>
  new Promise<number>((resolve) => server.getConnections((err, n) => resolve(err ? 0 : n)));

export function createDrain(): Drain {
  let draining = false;
  const inFlight = new Set<(r: Response) => void>();
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
  return {
    get draining() {
      return draining;
    },
    get inFlight() {
      return inFlight.size;
    },
    listener(inner) {
      return (req, res) => {
        const writeHead = res.writeHead;
        res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
          if (draining) this.shouldKeepAlive = false; // Node then sends Connection: close and ends the socket
          return writeHead.apply(this, args);
        } as ServerResponse["writeHead"];
        inner(req, res);
      };
    },
    track(answer) {
      return new Promise<Response>((resolve) => {
        const done = (r: Response) => {
          inFlight.delete(done);
          resolve(r);
        };
        inFlight.add(done);
        answer.then(done, () => done(shuttingDownResponse()));
      });
    },
    async drain(server, answerBy) {
      draining = true;
      // Stop accepting without http.Server.close(), which would also cut idle keep-alive sockets a client may be
      // writing a request on right now; those sockets get their Connection: close answer instead.
      NetServer.prototype.close.call(server);
      while (inFlight.size > 0 && Date.now() < answerBy) await wait(POLL_MS);
      for (const answer of [...inFlight]) answer(shuttingDownResponse());
      // Sockets close after their Connection: close answer is written; the idle ones are closed here.
      const closeBy = Math.max(answerBy, Date.now()) + 1000;
      while ((await connections(server)) > 0 && Date.now() < closeBy) {
        server.closeIdleConnections();
        await wait(POLL_MS);
      }
      server.closeAllConnections();
    },
  };
}
