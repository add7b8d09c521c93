/** The request's URL, parsed once per request for every layer that reads it (pipeline, CORS, HTTP semantics). */
const parsed = new WeakMap<Request, URL>();

export function requestUrl(request: Request): URL {
  let url = parsed.get(request);
  if (url === undefined) {
    url = new URL(request.url);
    parsed.set(request, url);
  }
  return url;
}
