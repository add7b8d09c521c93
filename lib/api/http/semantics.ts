/**
 * Header and body rules read off the pipeline's answer (docs/api-contract.md §11): WWW-Authenticate on 401, Location on
 * 201, and RFC 9457 members for family B errors when the request accepts application/problem+json.
 */
import { qualityOf } from "./negotiate";

export const PROBLEM_TYPE = "application/problem+json";

/** RFC 6750 §3: no error attribute when no credentials were sent; `invalid_token` when the key sent was refused. */
export function wwwAuthenticate(code: string | undefined): string {
  return code === "invalid_api_key" ? 'Bearer realm="api", error="invalid_token"' : 'Bearer realm="api"';
}

/** A created resource's URL: the collection's path and the created `data.id` (`data.webhookId` for alerts). */
export function locationOf(collectionPath: string, body: unknown): string | null {
  const data = (body as { data?: { id?: unknown; webhookId?: unknown } } | null)?.data;
  const id = data?.id ?? data?.webhookId;
  if (typeof id !== "string" || id.length === 0) return null;
  return `${collectionPath.replace(/\/$/, "")}/${encodeURIComponent(id)}`;
}

/** Family B's error body carries the envelope's fields; family A's is exactly spec §7 and never changes. */
const isFamilyBError = (body: unknown): body is { error: { code: string; message: string } } =>
  typeof body === "object" &&
  body !== null &&
  "error" in body &&
  "dataLabel" in body &&
  typeof (body as { error?: { code?: unknown } }).error?.code === "string";

/**
 * Family B, asked for problem details by name (q at least application/json's): the same body plus `type`, `title`, `status`,
 * `detail` and `instance`; null when the body stays as it is.
 */
export function problemDetails(
  accept: string | null,
  status: number,
  body: unknown,
  requestId: string | null,
): Record<string, unknown> | null {
  const wanted = namedQuality(accept, PROBLEM_TYPE);
  if (wanted === 0 || wanted < namedQuality(accept, "application/json") || !isFamilyBError(body)) return null;
  return {
    type: `urn:options-research:error:${body.error.code}`,
    title: body.error.code.replaceAll("_", " "),
    status,
    detail: body.error.message,
    ...(requestId ? { instance: `urn:options-research:request:${requestId}` } : {}),
    ...body,
  };
}

/** A media type's q where the header names it (never through a wildcard, which asks for nothing in particular). */
function namedQuality(accept: string | null, type: string): number {
  const named = accept
    ?.toLowerCase()
    .split(",")
    .some((part) => part.split(";")[0].trim() === type);
  return named ? qualityOf(accept, type) : 0;
}
