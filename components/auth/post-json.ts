/** POSTs JSON to a portal route and returns its data or its error (message and field) in the portal's error shape. */
export type PortalResult<T> = { ok: true; data: T } | { ok: false; status: number; message: string; field?: string };

export async function postJson<T>(path: string, body: unknown): Promise<PortalResult<T>> {
  try {
    const res = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const json = (await res.json().catch(() => null)) as {
      data?: T;
      error?: { message?: string; field?: string };
    } | null;
    if (res.ok) return { ok: true, data: json?.data as T };
    return {
      ok: false,
      status: res.status,
      message: json?.error?.message ?? `The portal answered ${res.status}; try again.`,
      field: json?.error?.field,
    };
  } catch {
    return { ok: false, status: 0, message: "The portal could not be reached; check your connection and try again." };
  }
}
