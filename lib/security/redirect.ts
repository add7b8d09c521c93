/**
 * Where the portal may send a browser after sign-in or accepting the terms: a path on this site, never another host.
 * The candidate is resolved with the URL parser against this site's origin (as a browser would resolve it), so
 * `/\host`, `/%09/host`, `//host` and `https://host` all resolve elsewhere and fall back to the default.
 * Pure (no server imports), so client components use it too.
 */

/** The origin paths are resolved against when the caller has none (any fixed origin gives the same answer). */
const BASE = "http://portal.invalid";

export const DEFAULT_AFTER_SIGNIN = "/dashboard";

/** `candidate` as a same-origin path (`/path?query#hash`), or `fallback` when it would leave the site. */
export function sameOriginPath(
  candidate: string | null | undefined,
  origin: string = BASE,
  fallback: string = DEFAULT_AFTER_SIGNIN,
): string {
  if (typeof candidate !== "string" || candidate === "" || candidate.length > 2048) return fallback;
  let base: URL;
  let resolved: URL;
  try {
    base = new URL(origin);
    resolved = new URL(candidate, base);
  } catch {
    return fallback;
  }
  // Only a relative path counts: an absolute URL, even to this origin, is not needed and is refused.
  if (!candidate.startsWith("/") || resolved.origin !== base.origin) return fallback;
  const path = resolved.pathname + resolved.search + resolved.hash;
  // A path that itself begins with two slashes (or a backslash) would be read as another host by the next parser.
  return path.startsWith("//") || path.startsWith("/\\") ? fallback : path;
}
