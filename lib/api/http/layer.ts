/**
 * The HTTP layer around the pipeline's `(Request) => Promise<Response>`: CORS, validators and freshness, 304, content
 * coding, WWW-Authenticate, Location and problem details (docs/api-contract.md §11). The pipeline decides what is
 * answered and meters it; this layer only says it in HTTP.
 */
import { requestUrl, servedAnswerOf, servedFacts } from "../served-facts";
import { cacheControl, entityTag, matchesIfNoneMatch } from "./caching";
import { compressBody } from "./compress";
import { addCorsHeaders, isPreflight, preflight } from "./cors";
import { appendHeader, type HeaderRecord, headerRecord } from "./header-record";
import type { OriginSource } from "./origins";
import { locationOf, PROBLEM_TYPE, problemDetails, wwwAuthenticate } from "./semantics";

type Handle = (request: Request) => Promise<Response>;

const HEALTH = "/api/v1/health";

export interface HttpLayerOptions {
  /** Negotiate br/gzip here; off where the server in front compresses (next start), so a body is never coded twice. */
  compress?: boolean;
  clock?: () => Date;
}

export function withHttpLayer(handle: Handle, origins: OriginSource, options: HttpLayerOptions = {}): Handle {
  const clock = options.clock ?? (() => new Date());
  const compress = options.compress ?? true;
  return async (request) => {
    if (isPreflight(request)) return preflight(request, origins);
    const response = await handle(request);
    const facts = servedFacts(request);
    const served = servedAnswerOf(response);
    // The pipeline's answers carry their headers as a record made for this answer alone (stages/answer.ts `reply`), so it
    // is completed in place and never turned into a Headers (header-record.ts); any other answer's are copied.
    const headers = served ? served.headers : headerRecord(response.headers);
    await addCorsHeaders(request, headers, origins, facts.accountId);
    if ((headers["content-type"] ?? "").startsWith("text/event-stream"))
      return new Response(response.body, { status: response.status, headers });
    const text = request.method === "HEAD" ? null : (served?.text ?? (await response.text()));
    return finish(request, response.status, text, headers, { now: clock(), compress });
  };
}

async function finish(
  request: Request,
  status: number,
  body: string | null,
  headers: HeaderRecord,
  options: { now: Date; compress: boolean },
): Promise<Response> {
  const { pathname } = requestUrl(request);
  let text = body;
  if (status === 401) headers["www-authenticate"] = wwwAuthenticate(codeOf(text));
  if (status === 201 && text !== null && headers.location === undefined) {
    const location = locationOf(pathname, parse(text));
    if (location) headers.location = location;
  }
  if (status >= 400 && text !== null) {
    const problem = problemDetails(request.headers.get("accept"), status, parse(text), headers["x-request-id"] ?? null);
    if (problem) {
      text = JSON.stringify(problem);
      headers["content-type"] = PROBLEM_TYPE;
    }
  }
  const readable = status === 200 && (request.method === "GET" || request.method === "HEAD");
  if (readable && pathname !== HEALTH) {
    const facts = servedFacts(request);
    const payload = facts.payload ?? text;
    if (payload !== null) {
      const etag = entityTag(status, headers["content-type"] ?? "", payload);
      headers.etag = etag;
      headers["cache-control"] = cacheControl(facts.asOf, options.now);
      if (matchesIfNoneMatch(request.headers.get("if-none-match"), etag)) return notModified(headers);
    }
  }
  if (text === null) return new Response(null, { status, headers });
  if (!options.compress) return new Response(text, { status, headers });
  return encode(request, status, headers, text);
}

async function encode(request: Request, status: number, headers: HeaderRecord, body: string) {
  appendHeader(headers, "vary", "Accept-Encoding");
  const compressed = await compressBody(body, request.headers.get("accept-encoding"));
  if (!compressed) return new Response(body, { status, headers });
  headers["content-encoding"] = compressed.encoding;
  delete headers["content-length"];
  return new Response(compressed.body, { status, headers });
}

/** 304: the 200's headers but its body's (content-type, length, coding), which a 304 does not describe. */
function notModified(headers: HeaderRecord): Response {
  for (const h of ["content-type", "content-length", "content-encoding"]) delete headers[h];
  return new Response(null, { status: 304, headers });
}

function parse(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const codeOf = (text: string | null) => (parse(text) as { error?: { code?: string } } | null)?.error?.code;
