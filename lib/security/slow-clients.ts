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
import diagnostics from "node:diagnostics_channel";
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

/** A connection accepted by an http.Server (not by another net.Server of the process). */
const isHttpSocket = (socket: Socket) => (socket as Socket & { server?: unknown }).server instanceof http.Server;

/**
 * Sheds before the server's own request listeners run: the first request a server receives wraps its listeners
 * (this instance only) so that a request answered 429 by the shed reaches none of them (./request-shed.ts).
 */
const shedding = new WeakSet<http.Server>();
function shedBeforeListeners(server: http.Server): void {
  if (shedding.has(server)) return;
  shedding.add(server);
  const listeners = server.listeners("request") as ((req: http.IncomingMessage, res: http.ServerResponse) => void)[];
  server.removeAllListeners("request");
  server.on("request", function (this: http.Server, req: http.IncomingMessage, res: http.ServerResponse) {
    if (shedRequest(req, res)) return; // answered 429 here: Next never sees it
    for (const listener of listeners) listener.call(this, req, res);
  });
}

/** Once per process, even if this module is loaded twice (Next bundles instrumentation apart from the server). */
const INSTALLED = Symbol.for("ora.slowClients");
const processFlags = globalThis as unknown as Record<symbol, boolean | undefined>;

/**
 * Installs the guard for every http.Server of the process (once; later calls change nothing), through Node's
 * documented diagnostics channels: `net.server.socket` (a connection accepted, published before the server's
 * `connection` event) and `http.server.request.start` (a request parsed, published before its `request` event).
 */
export function installSlowClientGuard(limits: SlowClientLimits = SLOW_CLIENT_LIMITS): void {
  if (processFlags[INSTALLED]) return;
  processFlags[INSTALLED] = true;
  diagnostics.subscribe("net.server.socket", (message) => {
    const { socket } = message as { socket: Socket };
    if (!isHttpSocket(socket)) return;
    const w: Watch = { counted: false };
    watches.set(socket, w);
    awaitHeaders(socket, w, limits);
    socket.once("close", () => uncount(socket, w));
  });
  diagnostics.subscribe("http.server.request.start", (message) => {
    const { request, response, server } = message as {
      request: http.IncomingMessage;
      response: http.ServerResponse;
      server: http.Server;
    };
    onRequest(request, response, limits);
    shedBeforeListeners(server);
  });
}

/** Idle half-open connections now held by an address (tests, diagnostics). */
export const idleConnections = (address: string) => idleByAddress.get(address) ?? 0;
