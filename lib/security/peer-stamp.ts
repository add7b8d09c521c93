/**
 * Route handlers under `next start` never see the socket, and Next fills X-Forwarded-For from it only when the client
 * sent none. This writes the socket's address into PEER_HEADER on every incoming request, overwriting whatever the
 * client sent there, so lib/security/client-address.ts can trust it. Installed once per process, at server start, on Node's
 * `http.server.request.start` diagnostics channel (no patching of http.Server).
 */
import { subscribe } from "node:diagnostics_channel";
import type http from "node:http";
import { PEER_HEADER } from "./client-address";

/** Node's documented hook, published for every request before the server's `request` event (node:diagnostics_channel). */
export const REQUEST_START = "http.server.request.start";
let installed = false;

export function installPeerStamp(): void {
  if (installed) return;
  installed = true;
  subscribe(REQUEST_START, (message) => stamp((message as { request: http.IncomingMessage }).request));
}

export function stamp(req: http.IncomingMessage): void {
  const address = req.socket?.remoteAddress;
  if (address) req.headers[PEER_HEADER] = address;
  else delete req.headers[PEER_HEADER];
}
