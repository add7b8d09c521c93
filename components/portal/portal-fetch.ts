/**
 * The browser's one JSON helper for the portal's routes: `{data}` on success; otherwise a PortalApiError carrying the
 * portal's error shape `{code, message, field}`. Forms type `body` with `z.input<…>` of the route's schema.
 */
export class PortalApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    /** Every invalid field with its message, when the portal names more than one (sign-up). */
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

/**
 * A refusal's message as a form shows it: without the API's path of the field in front ("webhook.ivRankAbove: …"),
 * which is for programs reading `field`; forms name the field by its label or show the message next to it.
 */
export function plainMessage(message: string, field?: string): string {
  if (!field) return message;
  const prefix = `${field}: `;
  if (!message.startsWith(prefix)) return message;
  const rest = message.slice(prefix.length);
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

export async function portalFetch<T, B = unknown>(path: string, init: { method?: string; body?: B } = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: init.body === undefined ? undefined : { "content-type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: "same-origin",
    });
  } catch {
    throw new PortalApiError(0, "network", "The portal could not be reached; check your connection and try again.");
  }
  const json = (await res.json().catch(() => null)) as {
    data?: T;
    error?: { code: string; message: string; field?: string; fields?: Record<string, string> };
  } | null;
  if (!res.ok || !json || json.error) {
    const e = json?.error;
    throw new PortalApiError(
      res.status,
      e?.code ?? "unknown",
      e?.message ? plainMessage(e.message, e.field) : `The portal answered ${res.status}; try again.`,
      e?.field,
      e?.fields,
    );
  }
  return json.data as T;
}

/** The same call as a value instead of a throw, for forms that show the message next to a field. */
export type PortalResult<T> =
  | { ok: true; data: T }
  | { ok: false; status: number; message: string; field?: string; fields?: Record<string, string> };

export async function portalResult<T, B = unknown>(path: string, body: B, method = "POST"): Promise<PortalResult<T>> {
  try {
    return { ok: true, data: await portalFetch<T, B>(path, { method, body }) };
  } catch (err) {
    const e =
      err instanceof PortalApiError ? err : new PortalApiError(0, "unknown", "Something went wrong; try again.");
    return { ok: false, status: e.status, message: e.message, field: e.field, fields: e.fields };
  }
}
