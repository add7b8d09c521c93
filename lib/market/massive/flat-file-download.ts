/**
 * Downloads a flat file from Massive's S3-compatible endpoint (`{MASSIVE_FLATFILES_URL}/flatfiles/{key}`, path-style,
 * signed with the S3 keys: https://massive.com/knowledge-base/article/how-to-get-started-with-s3) as a stream, so the
 * day file goes straight into the reader and is never held whole. Failures are VendorErrors without any key in them.
 */
import { Readable, Transform } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { VendorError } from "./client";
import { type S3Credentials, signS3Get } from "./s3-sigv4";

export interface FlatFileSource {
  baseUrl: string;
  credentials: S3Credentials;
  /** How long the answer's headers, then each stretch without data, may take; default 30 s. */
  idleTimeoutMs?: number;
  now?: () => Date;
}

/** The object's URL in the `flatfiles` bucket. */
export function flatFileUrl(baseUrl: string, key: string): URL {
  return new URL(`flatfiles/${key}`, baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
}

function failure(status: number, key: string): VendorError {
  if (status === 403)
    // The vendor's 403 does not say which: the keys, the plan's flat-file access, or a file not yet published.
    return new VendorError("auth", `flat file ${key} answered 403 (S3 keys, plan or a file not yet published)`);
  if (status === 404) return new VendorError("http", `flat file ${key} not found (404)`);
  return new VendorError(status >= 500 ? "server" : "http", `flat file ${key} answered ${status}`);
}

/** A stream that fails when no data came for `ms` (a stalled download would otherwise hang the run). */
function idleGuard(body: Readable, ms: number): Readable {
  const guard = new Transform({
    transform(chunk, _enc, done) {
      timer.refresh();
      done(null, chunk);
    },
  });
  const timer = setTimeout(() => guard.destroy(new Error(`no data for ${ms} ms`)), ms);
  guard.on("close", () => clearTimeout(timer));
  body.on("error", (err) => guard.destroy(err));
  return body.pipe(guard);
}

export async function downloadFlatFile(key: string, source: FlatFileSource): Promise<Readable> {
  const url = flatFileUrl(source.baseUrl, key);
  const ms = source.idleTimeoutMs ?? 30_000;
  const headers = signS3Get(url, source.credentials, (source.now ?? (() => new Date()))());
  // Bounds the wait for the answer's headers only: an abort signal left armed would also cut a long body short.
  const waiting = new AbortController();
  const timer = setTimeout(() => waiting.abort(), ms);
  let res: Response;
  try {
    res = await fetch(url, { headers, redirect: "error", signal: waiting.signal });
  } catch (err) {
    if (waiting.signal.aborted) throw new VendorError("timeout", `flat file ${key}: no answer within ${ms} ms`);
    throw new VendorError("network", `flat file ${key}: ${(err as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
  if (!res.ok || !res.body) {
    await res.body?.cancel().catch(() => {});
    throw failure(res.status, key);
  }
  return idleGuard(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), ms);
}
