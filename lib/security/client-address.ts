/**
 * The client's address, from the socket unless trusted proxies are configured. `TRUSTED_PROXIES` is the number of
 * proxies in front of the app (default 0: the socket address is the client); with N, the address N hops back along
 * `X-Forwarded-For` (counting the socket as the last hop) is the client, and anything a client writes further left is
 * ignored. The socket address reaches route handlers in PEER_HEADER, stamped on every request by
 * lib/security/peer-stamp.ts (any value a client sends in that header is overwritten).
 */
import ipaddr from "ipaddr.js";

export const PEER_HEADER = "x-ora-peer-address";

/** TRUSTED_PROXIES as a hop count: a whole number 0–10, anything else is 0. */
export function trustedProxies(env: Record<string, string | undefined> = process.env): number {
  const raw = env.TRUSTED_PROXIES?.trim();
  if (!raw || !/^\d{1,2}$/.test(raw)) return 0;
  return Math.min(Number(raw), 10);
}

/** A textual IP address in canonical form (IPv4-mapped IPv6 as plain IPv4), or undefined when it is not one. */
export function normaliseAddress(raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  let text = raw.trim();
  if (text.startsWith("[") && text.includes("]")) text = text.slice(1, text.indexOf("]"));
  const zone = text.indexOf("%");
  if (zone > 0) text = text.slice(0, zone);
  if (!ipaddr.isValid(text)) return undefined;
  const parsed = ipaddr.process(text);
  return parsed.toString();
}

/** The client's address for throttling and audit rows, or undefined when it cannot be known. */
export function clientAddressFrom(headers: Headers, trusted = trustedProxies()): string | undefined {
  const peer = normaliseAddress(headers.get(PEER_HEADER));
  if (trusted === 0) return peer;
  const chain = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (peer) chain.push(peer);
  if (chain.length === 0) return undefined;
  // The last `trusted` hops are our own proxies; the one they received the request from is the client.
  return normaliseAddress(chain[Math.max(0, chain.length - 1 - trusted)]);
}

export const clientAddress = (request: Request): string | undefined => clientAddressFrom(request.headers);
