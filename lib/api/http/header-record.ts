/**
 * Response headers as a plain record of lower-case names. The server's lightweight Response (@hono/node-server) writes
 * a record as it is, while a `Headers` object is built, validated and sorted (undici) on every answer and walked again to
 * write it: a measurable share of a call's CPU (docs/benchmark.md, 28 Nov). The API sets no cookies, so one value per
 * name is enough; repeated values are joined with ", " as `Headers.get` joins them.
 */
export type HeaderRecord = Record<string, string>;

/** A copy with lower-case names, from a record or from any `Headers`. */
export function headerRecord(headers: HeadersInit | undefined): HeaderRecord {
  const out: HeaderRecord = {};
  if (headers === undefined) return out;
  if (headers instanceof Headers || Array.isArray(headers)) {
    for (const [name, value] of headers instanceof Headers ? headers : new Headers(headers))
      appendHeader(out, name, value);
    return out;
  }
  for (const name in headers) out[name.toLowerCase()] = headers[name];
  return out;
}

/** Adds a value to a list-valued header (Vary and the like). */
export function appendHeader(headers: HeaderRecord, name: string, value: string): void {
  const known = headers[name];
  headers[name] = known === undefined ? value : `${known}, ${value}`;
}
