/** Browser-side calls to the portal's JSON routes: `{data}` on success, `{error:{code,message,field?}}` otherwise. */
export class PortalFetchError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly field?: string) {
    super(message);
    this.name = "PortalFetchError";
  }
}

export async function portalJson<T>(url: string, init: RequestInit = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers: { accept: "application/json", ...(init.body ? { "content-type": "application/json" } : {}), ...init.headers } });
  } catch {
    throw new PortalFetchError(0, "network", "The portal could not be reached. Check your connection and retry.");
  }
  const body = (await res.json().catch(() => null)) as { data?: T; error?: { code: string; message: string; field?: string } } | null;
  if (!res.ok || !body || body.error) {
    const e = body?.error;
    throw new PortalFetchError(res.status, e?.code ?? "unknown", e?.message ?? `The portal answered ${res.status}.`, e?.field);
  }
  return body.data as T;
}
