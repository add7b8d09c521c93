/**
 * SSRF rules: which addresses a webhook may reach. Only globally routable unicast addresses pass; private, loopback,
 * link-local (cloud metadata 169.254.169.254), CGNAT, unique-local (fd00:ec2::254), multicast, reserved and tunnelling
 * prefixes are refused, IPv4-mapped and IPv4-compatible (::/96) IPv6 judged as their IPv4 address. Link-local and
 * metadata addresses stay refused even where private targets are allowed (tests). Checked at registration and on every
 * connection.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    let parsed: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.parse(address.replace(/^\[|\]$/g, "").split("%")[0]);
    if (parsed.kind() === "ipv6") {
      const v6 = parsed as ipaddr.IPv6;
      if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
      // The deprecated IPv4-compatible form (::a.b.c.d, ::/96 but :: and ::1) is judged as its IPv4 address too.
      else if (v6.parts.slice(0, 6).every((p) => p === 0) && (v6.parts[6] !== 0 || v6.parts[7] > 1))
        parsed = ipaddr.fromByteArray(v6.toByteArray().slice(12));
    }
    return parsed;
  } catch {
    return null;
  }
}

/** null when the address may be reached, else the name of its refused range. */
export function refusedRange(address: string): string | null {
  const parsed = parseAddress(address);
  if (!parsed) return "unparseable";
  const range = parsed.range();
  return range === "unicast" ? alwaysRefused(parsed) : range;
}

/** Cloud metadata services: AWS/GCP/Azure/OpenStack (169.254.169.254), AWS IPv6, Alibaba, Oracle's second address. */
const METADATA = ["169.254.169.254", "169.254.170.2", "fd00:ec2::254", "100.100.100.200", "192.0.0.192"];

function alwaysRefused(parsed: ipaddr.IPv4 | ipaddr.IPv6): string | null {
  if (METADATA.some((m) => ipaddr.parse(m).toNormalizedString() === parsed.toNormalizedString())) return "metadata";
  if (parsed.range() === "linkLocal") return "linkLocal";
  return null;
}

/**
 * What stays refused even when WEBHOOKS_ALLOW_PRIVATE_TARGETS lets tests reach private and loopback addresses:
 * link-local and cloud-metadata addresses (in any IPv4-mapped or -compatible IPv6 form). null when not one of them.
 */
export function alwaysRefusedRange(address: string): string | null {
  const parsed = parseAddress(address);
  if (!parsed) return "unparseable";
  return alwaysRefused(parsed);
}

/** Loopback (127.0.0.0/8, ::1, and their IPv4-mapped forms): a test webhook's target when the server is on loopback. */
export function isLoopbackAddress(address: string): boolean {
  return parseAddress(address)?.range() === "loopback";
}

/** A host name or literal that means this machine: `localhost` (and its subdomains, RFC 6761) or a loopback address. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  return isIP(host) !== 0 && isLoopbackAddress(host);
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
export function guardedLookup(
  resolver: Resolver = systemResolver,
  opts: { allowPrivate?: boolean; allowLoopback?: boolean } = {},
): LookupFunction {
  const base = opts.allowPrivate ? alwaysRefusedRange : refusedRange;
  const judge = opts.allowLoopback ? (a: string) => (isLoopbackAddress(a) ? null : base(a)) : base;
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    resolver(hostname).then(
      (addresses) => {
        const allowed = addresses.filter((a) => judge(a) === null);
        if (allowed.length === 0) {
          const first = addresses[0] ?? "no address";
          const range = addresses[0] ? (judge(first) ?? "none") : "none";
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
