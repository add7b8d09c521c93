/**
 * What the pipeline learned about a call that the HTTP layer (lib/api/http) needs after it: the calling account (CORS),
 * the payload's text (ETag), the data's as-of time (Cache-Control) and the route's family (the request metrics). Keyed
 * by the Request, so nothing outlives it.
 */
export interface ServedFacts {
  family?: "A" | "B";
  accountId?: string;
  /** The answer's payload as JSON text (or the whole body when it has no envelope): the representation's version. */
  payload?: string;
  asOf?: Date;
}

const facts = new WeakMap<Request, ServedFacts>();

export function noteServed(request: Request, learned: ServedFacts): void {
  const known = facts.get(request);
  if (known) Object.assign(known, learned);
  else facts.set(request, { ...learned });
}

export const servedFacts = (request: Request): ServedFacts => facts.get(request) ?? {};
