/**
 * Graceful drain, in two parts shared by the standalone server and `next start` (docs/reliability.md):
 *   - the calls: counted while in flight; when the grace runs out, whatever is still running is answered 503;
 *   - the HTTP connections: while draining, every answer carries `Connection: close` and its socket closes after it;
 *     idle keep-alive sockets are closed until none is left.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { Server as NetServer } from "node:net";
import { shuttingDownResponse } from "./unavailable";

const POLL_MS = 20;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Calls {
  /** Tracks one call; its answer is replaced by a 503 if it is still running when `settle` gives up on it. */
  track(answer: Promise<Response>): Promise<Response>;
  readonly inFlight: number;
  /** Waits for the calls in flight until `by` (epoch ms), then answers the rest with 503. */
  settle(by: number): Promise<void>;
}

export function trackCalls(): Calls {
  const inFlight = new Set<(r: Response) => void>();
  return {
    get inFlight() {
      return inFlight.size;
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
    async settle(by) {
      // Done once no call was in flight at two polls in a row: a request a keep-alive client wrote just before the
      // last answers left may still be unread (not yet a call), and closing its socket now would reset it.
      for (let quiet = 0; quiet < 2 && Date.now() < by; ) {
        quiet = inFlight.size > 0 ? 0 : quiet + 1;
        if (quiet < 2) await wait(POLL_MS);
      }
      for (const answer of [...inFlight]) answer(shuttingDownResponse());
    },
  };
}

export interface Connections {
  /** Call for every request (before its answer is written): while draining, the answer closes its connection. */
  onRequest(res: ServerResponse): void;
  readonly draining: boolean;
  /** From now on every answer carries `Connection: close`. */
  startDraining(): void;
  /**
   * Closes `server`'s connections as they become idle (each after its last answer is written) until none is left or
   * `by` (epoch ms), then any remaining one. The server must have stopped accepting.
   */
  closeAll(server: Server, by: number): Promise<void>;
}

const connectionCount = (server: Server) =>
  new Promise<number>((resolve) => server.getConnections((err, n) => resolve(err ? 0 : n)));

export function trackConnections(): Connections {
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    startDraining() {
      draining = true;
    },
    onRequest(res) {
      const writeHead = res.writeHead;
      res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
        if (draining) this.shouldKeepAlive = false; // Node then sends Connection: close and ends the socket
        return writeHead.apply(this, args);
      } as ServerResponse["writeHead"];
    },
    async closeAll(server, by) {
      while ((await connectionCount(server)) > 0 && Date.now() < by) {
        server.closeIdleConnections();
        await wait(POLL_MS);
      }
      server.closeAllConnections();
    },
  };
}

/** Wraps a request listener so that `connections` sees every request. */
export function listenerWith(
  connections: Connections,
  inner: (req: IncomingMessage, res: ServerResponse) => unknown,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    connections.onRequest(res);
    inner(req, res);
  };
}

/**
 * A server's whole drain: from now on answers close their connections; stop accepting (without http.Server.close(),
 * which would also cut idle keep-alive sockets a client may be writing a request on right now: those get their
 * `Connection: close` answer instead); `settle` the calls by `answerBy`; close every connection within a second more.
 */
export async function drainServer(
  server: Server,
  connections: Connections,
  settle: (by: number) => Promise<void>,
  answerBy: number,
): Promise<void> {
  connections.startDraining();
  NetServer.prototype.close.call(server);
  await settle(answerBy);
  await connections.closeAll(server, Math.max(answerBy, Date.now()) + 1000);
}
