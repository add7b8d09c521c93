"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useState } from "react";
import { ErrorNote } from "@/components/portal/error-note";
import { portalFetch } from "@/components/portal/portal-fetch";
import type { LicensingChangeInput } from "@/lib/portal/admin-schemas";

interface Preview {
  status: number;
  body: unknown;
  summary: string;
}

/** Endpoint, environment, `State` and a required `Reason`; the preview shows the exact answer callers will get. */
export function LicensingForm({
  endpoints,
  initial,
}: {
  endpoints: { id: string; label: string }[];
  initial?: { endpointId: string; env: string; state: string };
}) {
  const router = useRouter();
  const id = useId();
  const [values, setValues] = useState<LicensingChangeInput>({
    endpointId: initial?.endpointId ?? endpoints[0]?.id ?? "",
    env: initial?.env ?? "live",
    state: initial?.state ?? "enabled",
    reason: "",
  });
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    // The preview needs a valid reason too; a placeholder keeps it visible while the reason is typed.
    portalFetch<Preview>("/api/admin/licensing/preview", {
      method: "POST",
      body: { ...values, reason: values.reason.trim().length >= 3 ? values.reason : "preview" },
    })
      .then((p) => live && setPreview(p))
      .catch(() => live && setPreview(null));
    return () => {
      live = false;
    };
  }, [values]);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      await portalFetch("/api/admin/licensing", { method: "POST", body: values });
      setDone(
        `Saved: ${values.endpointId} (${values.env}) is now ${values.state}. Every server applies it within 5 s.`,
      );
      setValues((v) => ({ ...v, reason: "" }));
      router.refresh();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const set = (k: keyof LicensingChangeInput) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [k]: e.target.value }));
  const field = "mt-1 block w-full rounded border border-slate-400 px-2 py-1.5";
  return (
    <form onSubmit={submit} className="space-y-3 rounded-md border border-slate-300 p-4" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`} className="text-xl font-semibold">
        Change a state
      </h2>
      <div className="grid gap-3 md:grid-cols-3">
        <div className="block text-sm font-medium md:col-span-3">
          <label htmlFor={`${id}-endpoint`}>Endpoint</label>
          <select id={`${id}-endpoint`} className={field} value={values.endpointId} onChange={set("endpointId")}>
            {endpoints.map((e) => (
              <option key={e.id} value={e.id}>
                {e.label}
              </option>
            ))}
          </select>
        </div>
        <div className="block text-sm font-medium">
          <label htmlFor={`${id}-env`}>Environment</label>
          <select id={`${id}-env`} className={field} value={values.env} onChange={set("env")}>
            <option value="live">live</option>
            <option value="test">test</option>
          </select>
        </div>
        <div className="block text-sm font-medium">
          <label htmlFor={`${id}-state`}>State</label>
          <select id={`${id}-state`} className={field} value={values.state} onChange={set("state")}>
            <option value="enabled">enabled</option>
            <option value="pending_licensing">pending_licensing</option>
          </select>
        </div>
        <div className="block text-sm font-medium md:col-span-3">
          <label htmlFor={`${id}-reason`}>Reason</label>
          <input
            id={`${id}-reason`}
            className={field}
            required
            minLength={3}
            maxLength={500}
            value={values.reason}
            onChange={set("reason")}
            aria-describedby={`${id}-preview`}
          />
        </div>
      </div>
      <div id={`${id}-preview`} className="space-y-1 text-sm" aria-live="polite">
        <p className="font-medium">Preview of what callers get</p>
        {preview ? (
          <>
            <p>{preview.summary}</p>
            {preview.body ? (
              <pre className="whitespace-pre-wrap break-words rounded bg-slate-100 p-2 text-xs">
                {`HTTP ${preview.status}\n${JSON.stringify(preview.body, null, 2)}`}
              </pre>
            ) : null}
          </>
        ) : (
          <p className="text-slate-700">—</p>
        )}
      </div>
      <button
        type="submit"
        disabled={busy}
        className="rounded bg-blue-700 px-3 py-1.5 font-medium text-white hover:bg-blue-800 disabled:opacity-60 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-700"
      >
        Change state
      </button>
      {done ? (
        <p role="status" className="text-sm text-green-800">
          {done}
        </p>
      ) : null}
      <ErrorNote error={error} />
    </form>
  );
}
