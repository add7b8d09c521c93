/**
 * HTTP client for the Massive (formerly Polygon.io) REST API: the key travels in the `Authorization: Bearer` header,
 * never in a query string; `next_url` pages are followed on the configured host only, with any `apiKey` parameter
 * stripped, and a page that points back to one already read fails the run (a loop). Every failure is a VendorError
 * whose message never contains the key.
 */
import { setTimeout as sleep } from "node:timers/promises";

export type VendorFailure = "auth" | "rate_limited" | "server" | "timeout" | "malformed" | "loop" | "http" | "network";

export class VendorError extends Error {
  constructor(
    readonly failure: VendorFailure,
    message: string,
    /** For 429: how long the vendor asked us to wait (ms), so the queue can retry after it. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "VendorError";
  }
}

export interface MassiveClientOptions {
  baseUrl: string;
  apiKey: string;
  /** Per request; default 20 s. */
  timeoutMs?: number;
  /** Pages one listing may have before it is refused (a runaway cursor); default 1000. */
  maxPages?: number;
  /** 429 answers waited out in place (Retry-After, capped by maxRetryAfterMs) before the job fails; default 3. */
  maxRateLimitWaits?: number;
  /** Longest Retry-After honoured in place; a longer one fails the job with retryAfterMs for the queue. */
  maxRetryAfterMs?: number;
}

/** A page of a Massive v3 listing: `results` plus an optional `next_url`. */
export interface Page<T> {
  results?: T[];
  next_url?: string;
  status?: string;
}

/** Retry-After as seconds or an HTTP date; default 1 s when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (!header) return 1000;
  const secs = Number(header);
  if (Number.isFinite(secs) && secs >= 0) return Math.round(secs * 1000);
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - now) : 1000;
}

/**
 * JSON.parse keeping Unix-nanosecond fields exact: numbers past 2^53 lose up to ~256 ns as doubles, so the vendor's
 * nanosecond fields (`*_timestamp`, `last_updated`) are read as decimal strings when they are integers.
 */
export function parseVendorJson<T>(text: string): T {
  return JSON.parse(
    text.replace(/"(\w*_timestamp|last_updated)"(\s*):(\s*)(\d{16,})(?=\s*[,}\]])/g, '"$1"$2:$3"$4"'),
  ) as T;
}

export class MassiveClient {
  private readonly base: URL;
  readonly pagesRead = { count: 0 };

  constructor(private readonly opts: MassiveClientOptions) {
    this.base = new URL(opts.baseUrl);
  }

  /** The path (with query) as it may be logged: no key, ever. */
  private describe(url: URL): string {
    const safe = new URL(url);
    safe.searchParams.delete("apiKey");
    return `${safe.pathname}${safe.search}`;
  }

  /** Resolves a path or a vendor `next_url` against the configured host; refuses another host. */
  resolve(pathOrUrl: string, query: Record<string, string | number | undefined> = {}): URL {
    const url = new URL(pathOrUrl, this.base);
    if (url.origin !== this.base.origin)
      throw new VendorError("malformed", `next_url points to another host (${url.host}); refused`);
    url.searchParams.delete("apiKey");
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  async getJson<T>(pathOrUrl: string, query: Record<string, string | number | undefined> = {}): Promise<T> {
    const text = await this.getText(this.resolve(pathOrUrl, query), "application/json");
    try {
      return parseVendorJson<T>(text);
    } catch {
      throw new VendorError("malformed", `malformed JSON from ${this.describe(this.resolve(pathOrUrl, query))}`);
    }
  }

  /** Every page of a v3 listing, following next_url; the same page twice is a loop and fails. */
  async *pages<T>(path: string, query: Record<string, string | number | undefined> = {}): AsyncGenerator<T[]> {
    const seen = new Set<string>();
    let next: string | undefined = this.resolve(path, query).href;
    const max = this.opts.maxPages ?? 1000;
    while (next) {
      const url = this.resolve(next);
      const key = url.href;
      if (seen.has(key)) throw new VendorError("loop", `next_url loops back to ${this.describe(url)}`);
      if (seen.size >= max) throw new VendorError("loop", `more than ${max} pages from ${path}; refused`);
      seen.add(key);
      const page = await this.getJson<Page<T>>(key);
      if (page === null || typeof page !== "object" || (page.results !== undefined && !Array.isArray(page.results)))
        throw new VendorError("malformed", `unexpected answer shape from ${this.describe(url)}`);
      this.pagesRead.count++;
      yield page.results ?? [];
      next = typeof page.next_url === "string" && page.next_url !== "" ? page.next_url : undefined;
    }
  }

  /** GET with the Bearer key; waits out a short 429 in place, maps every other failure to a VendorError. */
  async getText(url: URL, accept: string): Promise<string> {
    const waits = this.opts.maxRateLimitWaits ?? 3;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(url, {
          headers: { authorization: `Bearer ${this.opts.apiKey}`, accept },
          signal: AbortSignal.timeout(this.opts.timeoutMs ?? 20_000),
        });
      } catch (err) {
        const name = (err as Error).name;
        if (name === "TimeoutError" || name === "AbortError")
          throw new VendorError(
            "timeout",
            `no answer from ${this.describe(url)} in ${this.opts.timeoutMs ?? 20_000} ms`,
          );
        throw new VendorError(
          "network",
          `cannot reach ${url.host}: ${(err as Error).message.replaceAll(this.opts.apiKey, "***")}`,
        );
      }
      if (res.ok) return res.text();
      await res.body?.cancel().catch(() => {});
      const where = `${res.status} from ${this.describe(url)}`;
      if (res.status === 429) {
        const wait = retryAfterMs(res.headers.get("retry-after"));
        if (attempt < waits && wait <= (this.opts.maxRetryAfterMs ?? 30_000)) {
          await sleep(wait);
          continue;
        }
        throw new VendorError("rate_limited", `rate limited (${where}); retry after ${wait} ms`, wait);
      }
      if (res.status === 401 || res.status === 403)
        throw new VendorError("auth", `the vendor refused the API key (${where}); check MASSIVE_API_KEY`);
      if (res.status >= 500) throw new VendorError("server", `vendor error ${where}`);
      throw new VendorError("http", `unexpected ${where}`);
    }
  }
}
