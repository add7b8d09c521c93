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
  ) {
    super(message);
  }
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
    error?: { code: string; message: string; field?: string };
  } | null;
  if (!res.ok || !json || json.error) {
    const e = json?.error;
    throw new PortalApiError(
      res.status,
      e?.code ?? "unknown",
      e?.message ?? `The portal answered ${res.status}; try again.`,
      e?.field,
    );
  }
  return json.data as T;
}

/** The same call as a value instead of a throw, for forms that show the message next to a field. */
export type PortalResult<T> = { ok: true; data: T } | { ok: false; status: number; message: string; field?: string };

export async function portalResult<T, B = unknown>(path: string, body: B, method = "POST"): Promise<PortalResult<T>> {
  try {
    return { ok: true, data: await portalFetch<T, B>(path, { method, body }) };
  } catch (err) {
    const e =
      err instanceof PortalApiError ? err : new PortalApiError(0, "unknown", "Something went wrong; try again.");
    return { ok: false, status: e.status, message: e.message, field: e.field };
  }
}
