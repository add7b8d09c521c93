/**
 * SSRF rules: which addresses a webhook may reach. Only globally routable unicast addresses pass; private, loopback,
 * link-local (cloud metadata 169.254.169.254), CGNAT, unique-local (fd00:ec2::254), multicast, reserved and tunnelling
 * prefixes are refused, IPv4-mapped IPv6 judged as its IPv4 address. Checked at registration and on every connection.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/** null when the address may be reached, else the name of its refused range. */
export function refusedRange(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, "").split("%")[0]);
  } catch {
    return "unparseable";
  }
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  return range === "unicast" ? null : range;
}

export class RefusedAddressError extends Error {
  readonly code = "ERR_WEBHOOK_REFUSED_ADDRESS";
  constructor(host: string, address: string, range: string) {
    super(`${host} resolves to ${address} (${range}), which webhooks may not reach`);
  }
}

export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addrs: LookupAddress[]) =>
      err ? reject(err) : resolve(addrs.map((a) => a.address)),
    ),
  );

/**
 * Registration check: a literal address, or every address the name resolves to, must be allowed. A name that does
 * not resolve now is accepted (delivery checks again on the address it connects to).
 */
export async function checkTargetHost(hostname: string, resolver: Resolver = systemResolver): Promise<string | null> {
  const host = hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) {
    const range = refusedRange(host);
    return range ? `${host} is a ${range} address` : null;
  }
  let addresses: string[];
  try {
    addresses = await resolver(host);
  } catch {
    return null;
  }
  for (const a of addresses) {
    const range = refusedRange(a);
    if (range) return `${host} resolves to a ${range} address`;
  }
  return null;
}

/** A `lookup` for node:http(s) that resolves with `resolver` and refuses to hand a forbidden address to connect(). */
export function guardedLookup(resolver: Resolver = systemResolver): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    resolver(hostname).then(
      (addresses) => {
        const allowed = addresses.filter((a) => refusedRange(a) === null);
        if (allowed.length === 0) {
          const first = addresses[0] ?? "no address";
          const range = addresses[0] ? (refusedRange(first) ?? "none") : "none";
          return callback(new RefusedAddressError(hostname, first, range));
        }
        const entries = allowed.map((address) => ({ address, family: isIP(address) }));
        if (options?.all) callback(null, entries);
        else callback(null, entries[0].address, entries[0].family);
      },
      (err) => callback(err),
    );
  }) as unknown as LookupFunction;
}
