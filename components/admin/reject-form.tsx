"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { ErrorNote } from "@/components/portal/error-note";
import { portalFetch } from "@/components/portal/portal-fetch";

/** `Reject` with a required `Reason` the requester will see. */
export function RejectForm({ requestId, company }: { requestId: string; company: string }) {
  const router = useRouter();
  const id = useId();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await portalFetch(`/api/admin/access-requests/${encodeURIComponent(requestId)}/reject`, {
        method: "POST",
        body: { reason },
      });
      router.refresh();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <form onSubmit={submit} className="flex flex-col gap-1">
      <label htmlFor={`${id}-r`} className="text-xs font-medium">
        Reason<span className="sr-only"> for rejecting {company}</span>
      </label>
      <input
        id={`${id}-r`}
        required
        minLength={3}
        maxLength={500}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        className="w-full rounded border border-slate-400 px-2 py-1 text-sm"
      />
      <button
        type="submit"
        disabled={busy}
        className="self-start rounded border border-red-700 px-2 py-1 text-sm font-medium text-red-800 hover:bg-red-50 disabled:opacity-60 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-700"
      >
        Reject
      </button>
      <ErrorNote error={error} />
    </form>
  );
}
