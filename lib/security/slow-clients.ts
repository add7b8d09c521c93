/**
 * Slow clients under `next start` (issue 30 item 6). Next's CLI gives no way to set node's headersTimeout or
 * requestTimeout, and node checks those only every 30 s, so trickled headers lived 75–89 s and trickled bodies longer.
 * This guard watches every connection of every http.Server in the process (installed from instrumentation.ts):
 *  - a request's headers must be complete within `headersMs` of the connection (or of the previous answer's end);
 *  - its body within `bodyMs` of its headers;
 *  - a client address may hold at most `idlePerClient` connections that have waited more than `graceMs` for their
 *    headers (idle half-open connections); past that the newest such connection is closed.
 * Docs: docs/security.md "Slow clients".
 */
import http from "node:http";
import type { Socket } from "node:net";
import { shedRequest } from "./request-shed";

export interface SlowClientLimits {
  headersMs: number;
  bodyMs: number;
  idlePerClient: number;
  graceMs: number;
}

export const SLOW_CLIENT_LIMITS: SlowClientLimits = {
  headersMs: 25_000,
  bodyMs: 55_000,
  idlePerClient: 50,
  graceMs: 2_000,
};

const INSTALLED = Symbol.for("ora.slowClients");

interface Watch {
  headers?: NodeJS.Timeout;
  idle?: NodeJS.Timeout;
  counted: boolean;
}

/** Idle half-open connections per client address (across the process's servers). */
const idleByAddress = new Map<string, number>();

function uncount(socket: Socket, w: Watch): void {
  clearTimeout(w.headers);
  clearTimeout(w.idle);
  if (!w.counted) return;
  w.counted = false;
  const address = socket.remoteAddress ?? "";
  const n = (idleByAddress.get(address) ?? 1) - 1;
  if (n > 0) idleByAddress.set(address, n);
  else idleByAddress.delete(address);
}

/** The socket now waits for a request's headers: cut it at `headersMs`, count it as idle after `graceMs`. */
function awaitHeaders(socket: Socket, w: Watch, limits: SlowClientLimits): void {
  uncount(socket, w);
  w.headers = setTimeout(() => socket.destroy(), limits.headersMs).unref();
  w.idle = setTimeout(() => {
    const address = socket.remoteAddress ?? "";
    const n = (idleByAddress.get(address) ?? 0) + 1;
    if (n > limits.idlePerClient) return void socket.destroy();
    idleByAddress.set(address, n);
    w.counted = true;
  }, limits.graceMs).unref();
}

function onRequest(req: http.IncomingMessage, res: http.ServerResponse, limits: SlowClientLimits): void {
  const socket = req.socket;
  const w = watches.get(socket);
  if (!w) return;
  uncount(socket, w);
  const body = setTimeout(() => {
    if (!req.complete) socket.destroy();
  }, limits.bodyMs).unref();
  req.once("end", () => clearTimeout(body));
  res.once("finish", () => {
    clearTimeout(body);
    if (!socket.destroyed) awaitHeaders(socket, w, limits);
  });
  res.once("close", () => clearTimeout(body));
}

const watches = new WeakMap<Socket, Watch>();

/** Installs the guard on http.Server (once per process); later calls change nothing. */
export function installSlowClientGuard(limits: SlowClientLimits = SLOW_CLIENT_LIMITS): void {
  const proto = http.Server.prototype as unknown as Record<symbol, boolean> & {
    emit: (event: string | symbol, ...args: unknown[]) => boolean;
  };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "connection") {
      const socket = args[0] as Socket;
      const w: Watch = { counted: false };
      watches.set(socket, w);
      awaitHeaders(socket, w, limits);
      socket.once("close", () => uncount(socket, w));
    } else if (event === "request") {
      const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
      onRequest(req, res, limits);
      if (shedRequest(req, res)) return true; // answered 429 here: Next never sees it (./request-shed.ts)
    }
    return emit.call(this, event, ...args);
  };
}

/** Idle half-open connections now held by an address (tests, diagnostics). */
export const idleConnections = (address: string) => idleByAddress.get(address) ?? 0;
