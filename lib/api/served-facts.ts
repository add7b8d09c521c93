/**
 * What the layers of one request share: its URL, parsed once, and what the pipeline learned about the call that the
 * HTTP layer (lib/api/http) needs after it: the calling account (CORS), the payload's text (ETag), the data's as-of time
 * (Cache-Control) and the route's family (the request metrics). One object per request, made by the first layer that
 * asks and written in place by the stages (the Call holds it); keyed by the Request, so nothing outlives it.
 */
export interface ServedFacts {
  readonly url: URL;
  family?: "A" | "B";
  accountId?: string;
  /** The answer's payload as JSON text (or the whole body when it has no envelope): the representation's version. */
  payload?: string;
  asOf?: Date;
}

const facts = new WeakMap<Request, ServedFacts>();

export function servedFacts(request: Request): ServedFacts {
  let known = facts.get(request);
  if (known === undefined) {
    known = { url: new URL(request.url) };
    facts.set(request, known);
  }
  return known;
}

/** The request's URL, parsed once per request for every layer that reads it (pipeline, CORS, HTTP semantics). */
export const requestUrl = (request: Request): URL => servedFacts(request).url;

/** What a textResponse was made from: its body text and its headers as given. */
export interface ServedAnswer {
  text: string;
  headers: Record<string, string>;
}

const answers = new WeakMap<Response, ServedAnswer>();

/**
 * A Response whose body text and headers the HTTP layer can read back without reading the body or building a `Headers`:
 * `response.text()` turns the server's lightweight Response into a full one with a stream (about a tenth of a call's
 * CPU in the profile of 27 Nov, docs/benchmark.md), and the layer only wants the string and the record it was made from.
 */
export function textResponse(text: string, init: { status: number; headers: Record<string, string> }): Response {
  const response = new Response(text, init);
  answers.set(response, { text, headers: init.headers });
  return response;
}

/** What `response` was made from by textResponse; undefined for any other Response (read its body instead). */
export const servedAnswerOf = (response: Response): ServedAnswer | undefined => answers.get(response);
