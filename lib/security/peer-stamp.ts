/**
 * Route handlers under `next start` never see the socket, and Next fills X-Forwarded-For from it only when the client
 * sent none. This writes the socket's address into PEER_HEADER on every incoming request, overwriting whatever the
 * client sent there, so lib/security/client-address.ts can trust it. Installed once per process, at server start.
 */
import http from "node:http";
import { PEER_HEADER } from "./client-address";

const INSTALLED = Symbol.for("ora.peerStamp");

export function installPeerStamp(): void {
  const proto = http.Server.prototype as unknown as Record<symbol, boolean> & {
    emit: (event: string | symbol, ...args: unknown[]) => boolean;
  };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") stamp(args[0] as http.IncomingMessage);
    return emit.call(this, event, ...args);
  };
}

export function stamp(req: http.IncomingMessage): void {
  const address = req.socket?.remoteAddress;
  if (address) req.headers[PEER_HEADER] = address;
  else delete req.headers[PEER_HEADER];
}
