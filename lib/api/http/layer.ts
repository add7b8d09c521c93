/**
 * The HTTP layer around the pipeline's `(Request) => Promise<Response>`: CORS, validators and freshness, 304, content
 * coding, WWW-Authenticate, Location and problem details (docs/api-contract.md §11). The pipeline decides what is
 * answered and meters it; this layer only says it in HTTP.
 */
import { bodyTextOf, servedFacts } from "../served-facts";
import { cacheControl, entityTag, matchesIfNoneMatch } from "./caching";
import { compressBody } from "./compress";
import { addCorsHeaders, isPreflight, preflight } from "./cors";
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
    const headers = new Headers(response.headers);
    await addCorsHeaders(request, headers, origins, facts.accountId);
    if ((headers.get("content-type") ?? "").startsWith("text/event-stream"))
      return new Response(response.body, { status: response.status, headers });
    return finish(request, response, headers, clock(), compress);
  };
}

async function finish(
  request: Request,
  response: Response,
  headers: Headers,
  now: Date,
  compress: boolean,
): Promise<Response> {
  const { status } = response;
  const url = new URL(request.url);
  let text = request.method === "HEAD" ? null : (bodyTextOf(response) ?? (await response.text()));
  if (status === 401) headers.set("www-authenticate", wwwAuthenticate(codeOf(text)));
  if (status === 201 && text !== null && !headers.has("location")) {
    const location = locationOf(url.pathname, parse(text));
    if (location) headers.set("location", location);
  }
  if (status >= 400 && text !== null) {
    const problem = problemDetails(request.headers.get("accept"), status, parse(text), headers.get("x-request-id"));
    if (problem) {
      text = JSON.stringify(problem);
      headers.set("content-type", PROBLEM_TYPE);
    }
  }
  const readable = status === 200 && (request.method === "GET" || request.method === "HEAD");
  if (readable && url.pathname !== HEALTH) {
    const facts = servedFacts(request);
    const payload = facts.payload ?? text;
    if (payload !== null) {
      const etag = entityTag(status, headers.get("content-type") ?? "", payload);
      headers.set("etag", etag);
      headers.set("cache-control", cacheControl(facts.asOf, now));
      if (matchesIfNoneMatch(request.headers.get("if-none-match"), etag)) return notModified(headers);
    }
  }
  if (text === null) return new Response(null, { status, headers });
  if (!compress) return new Response(text, { status, headers });
  return encode(request, status, headers, text);
}

async function encode(request: Request, status: number, headers: Headers, body: string) {
  headers.append("vary", "Accept-Encoding");
  const compressed = await compressBody(body, request.headers.get("accept-encoding"));
  if (!compressed) return new Response(body, { status, headers });
  headers.set("content-encoding", compressed.encoding);
  headers.delete("content-length");
  return new Response(compressed.body, { status, headers });
}

/** 304: the 200's headers but its body's (content-type, length, coding), which a 304 does not describe. */
function notModified(headers: Headers): Response {
  for (const h of ["content-type", "content-length", "content-encoding"]) headers.delete(h);
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
