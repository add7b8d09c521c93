/**
 * The requested path and query kept with each usage event (migration 0014), as the request log shows it: as received
 * (percent-encoding kept, so it can be replayed), with secrets taken out, at most LOGGED_PATH_MAX characters.
 */

export const LOGGED_PATH_MAX = 512;
export const REDACTED = "REDACTED";

/** Query parameters whose values are credentials wherever a client puts them (the API reads keys from headers only). */
const SECRET_PARAM =
  /^(api[-_]?key|apikey|key|x[-_]api[-_]key|x[-_]service[-_]key|service[-_]?key|token|access[-_]?token|id[-_]?token|refresh[-_]?token|auth|authorization|bearer|secret|client[-_]?secret|password|passwd|pwd|signature|sig|session|sessionid)$/i;
/** Anything shaped like one of the service's own keys, anywhere in the path or query. */
const SERVICE_KEY = /svc_(sk_live|live|test)_[0-9A-Za-z]+/g;

/** `text` with every part shaped like one of the service's keys replaced by its prefix and REDACTED. */
export const withoutServiceKeys = (text: string): string =>
  text.includes("svc_") ? text.replace(SERVICE_KEY, (_, kind: string) => `svc_${kind}_${REDACTED}`) : text;

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    return raw;
  }
}

/** `key=value` pairs of a raw query string (no leading `?`), values of secret-named parameters replaced. */
function redactQuery(query: string): string {
  return query
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return SECRET_PARAM.test(decodedName(name).trim()) ? `${name}=${REDACTED}` : pair;
    })
    .join("&");
}

/** The path and query of `url` as the request log keeps them. */
export function loggedPath(url: URL): string {
  let out = url.search.length > 1 ? `${url.pathname}?${redactQuery(url.search.slice(1))}` : url.pathname;
  out = withoutServiceKeys(out);
  return out.length <= LOGGED_PATH_MAX ? out : `${out.slice(0, LOGGED_PATH_MAX - 1)}…`;
}
