"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmDialog } from "@/components/portal/confirm-dialog";
import { ErrorNote } from "@/components/portal/error-note";
import { portalFetch } from "@/components/portal/portal-fetch";
import { Button } from "@/components/ui/button";

/**
 * A button that POSTs one admin action, then reloads the page's server data; a refusal is announced next to it.
 * `confirm`: the action is asked about first in a modal (focus kept inside, Escape cancels).
 */
export function ActionButton({
  path,
  body,
  label,
  name,
  confirm,
  tone = "secondary",
}: {
  path: string;
  body?: unknown;
  label: string;
  /** The accessible name when the label alone is ambiguous in a list (e.g. "Deactivate key svc_test_ab12"). */
  name?: string;
  confirm?: string;
  tone?: "primary" | "secondary" | "danger";
}) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function run() {
    setBusy(true);
    setError(null);
    try {
      await portalFetch(path, { method: "POST", body: body ?? {} });
      setAsking(false);
      router.refresh();
    } catch (err) {
      setAsking(false);
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <span className="inline-flex max-w-full flex-col items-start gap-1">
      <Button
        size="sm"
        variant={tone}
        onClick={() => (confirm ? setAsking(true) : run())}
        disabled={busy}
        aria-label={name}
      >
        {busy ? `${label}…` : label}
      </Button>
      {confirm ? (
        <ConfirmDialog
          open={asking}
          title={`${label}?`}
          confirmLabel={label}
          busy={busy}
          danger={tone === "danger"}
          onConfirm={run}
          onCancel={() => setAsking(false)}
        >
          <p className="text-sm text-muted">{confirm}</p>
        </ConfirmDialog>
      ) : null}
      <ErrorNote error={error} />
    </span>
  );
}
