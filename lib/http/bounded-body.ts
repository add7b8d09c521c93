/**
 * The one reader of request bodies (portal routes, Auth.js callbacks, the playground, /api/v1): a declared
 * Content-Length over the limit is refused before a byte is read, and the stream is cut as soon as it passes the limit,
 * so an oversized body never sits in memory. JSON is parsed only after its nesting depth is checked, so a deeply nested
 * body cannot exhaust the parser's stack. Each caller turns a BodyError into its own family's error shape.
 */

/** Thrown for a body the route refuses: `status` is 413 (too large) or 400 (not readable, not JSON, too deep). */
export class BodyError extends Error {
  constructor(
    readonly status: 400 | 413,
    readonly code: "payload_too_large" | "invalid_body",
    message: string,
    /** The limit that was passed (413 only). */
    readonly limit?: number,
  ) {
    super(message);
    this.name = "BodyError";
  }
}

/** Portal JSON bodies (forms, the playground's request). */
export const PORTAL_JSON_LIMIT = 64 * 1024;
/** Auth.js's endpoints: a sign-in form is a few hundred bytes. */
export const AUTH_BODY_LIMIT = 16 * 1024;
/** Nesting deeper than this is refused before parsing (no legitimate body of this product comes near it). */
export const JSON_MAX_DEPTH = 64;

const tooLarge = (limit: number) =>
  new BodyError(413, "payload_too_large", `The request body is larger than ${formatBytes(limit)}.`, limit);

function formatBytes(n: number): string {
  return n % 1024 === 0 ? `${n / 1024} kB` : `${n} bytes`;
}

/** The declared length is refused when it is over the limit or malformed (a body of unknown length is read with the cut). */
export function checkContentLength(headers: Headers, limit: number): void {
  const declared = headers.get("content-length");
  if (declared === null) return;
  if (!/^\d+$/.test(declared.trim()))
    throw new BodyError(400, "invalid_body", "The Content-Length header is malformed.");
  if (Number(declared) > limit) throw tooLarge(limit);
}

/** The body's bytes, at most `limit` of them; the stream is cancelled the moment it passes the limit. */
export async function readBoundedBytes(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  checkContentLength(request.headers, limit);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        throw tooLarge(limit);
      }
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof BodyError) throw err;
    throw new BodyError(400, "invalid_body", "The request body could not be read.");
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/** The body as UTF-8 text, bounded like readBoundedBytes. */
export async function readBoundedText(request: Request, limit: number): Promise<string> {
  return Buffer.from(await readBoundedBytes(request, limit)).toString("utf8");
}

/**
 * The deepest nesting of arrays and objects in JSON text, counted without parsing (strings skipped, escapes honoured);
 * stops counting once past `max`.
 */
export function jsonDepth(text: string, max = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: the next character is escaped
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > max) return deepest;
      }
    } else if (c === 125 || c === 93) depth--;
  }
  return deepest;
}

/** JSON.parse after the depth check; an empty body is `{}`. */
export function parseBoundedJson(text: string, maxDepth = JSON_MAX_DEPTH): unknown {
  if (text.trim() === "") return {};
  if (jsonDepth(text, maxDepth) > maxDepth)
    throw new BodyError(400, "invalid_body", `The request body nests deeper than ${maxDepth} levels.`);
  try {
    return JSON.parse(text);
  } catch {
    throw new BodyError(400, "invalid_body", "The request body is not valid JSON.");
  }
}

/** A JSON body (≤ `limit` bytes, ≤ JSON_MAX_DEPTH deep), read while it streams. */
export async function readBoundedJson(request: Request, limit = PORTAL_JSON_LIMIT): Promise<unknown> {
  return parseBoundedJson(await readBoundedText(request, limit));
}

/**
 * The same request with its body read (bounded) and buffered, for handlers that read the body themselves (Auth.js):
 * they see the same method, URL, headers and bytes, and never an unbounded stream.
 */
export async function withBoundedBody(request: Request, limit: number): Promise<Request> {
  if (request.method === "GET" || request.method === "HEAD") return request;
  const bytes = await readBoundedBytes(request, limit);
  const headers = new Headers(request.headers);
  headers.set("content-length", String(bytes.byteLength));
  return new Request(request.url, {
    method: request.method,
    headers,
    body: bytes as Uint8Array<ArrayBuffer>,
    signal: request.signal,
  });
}
