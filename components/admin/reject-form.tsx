"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { ErrorNote } from "@/components/portal/error-note";
import { portalFetch } from "@/components/portal/portal-fetch";
import { Button } from "@/components/ui/button";
import { fieldMessage, TextField } from "./fields";

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
  const reasonError = fieldMessage(error, "reason");
  return (
    <form onSubmit={submit} noValidate className="flex min-w-0 flex-col gap-2">
      <TextField
        id={`${id}-r`}
        label={
          <>
            Reason<span className="sr-only"> for rejecting {company}</span>
          </>
        }
        required
        maxLength={500}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        error={reasonError}
      />
      <Button type="submit" size="sm" variant="danger" disabled={busy} className="self-start">
        Reject
      </Button>
      {error && !reasonError ? <ErrorNote error={error} /> : null}
    </form>
  );
}
