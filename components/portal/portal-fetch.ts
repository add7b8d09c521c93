/** The portal's JSON routes from the browser: `{data}` on success, a PortalApiError carrying `{code, message, field}` otherwise. */
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

export async function portalFetch<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: init.method ?? "GET",
      headers: init.body === undefined ? undefined : { "content-type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: "same-origin",
    });
  } catch {
    throw new PortalApiError(0, "network", "The portal could not be reached; check your connection and retry.");
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
      e?.message ?? `The portal answered ${res.status}.`,
      e?.field,
    );
  }
  return json.data as T;
}
