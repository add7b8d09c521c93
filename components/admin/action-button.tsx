"use client";

import { type ReactNode, useId, useState } from "react";
import { ConfirmDialog } from "@/components/portal/confirm-dialog";
import { ErrorNote } from "@/components/portal/error-note";
import { Button } from "@/components/ui/button";
import { fieldAttrs, lengthHint } from "@/lib/contract/field-attrs";
import { auditReason } from "@/lib/contract/admin-inputs";
import { fieldMessage, TextField } from "./fields";
import { useAdminPost } from "./use-admin-post";

const REASON = auditReason();

/**
 * A button for one admin action that changes state: it always asks first in a modal whose title names the target
 * (account, key, request) and whose text says the effect; `reason` adds a required Reason the audit log keeps. Then
 * it POSTs and reloads the page's server data; a refusal is announced in the dialog.
 */
export function ActionButton({
  path,
  body,
  label,
  name,
  title,
  effect,
  reason,
  tone = "secondary",
}: {
  path: string;
  body?: Record<string, unknown>;
  label: string;
  /** The accessible name when the label alone is ambiguous in a list (e.g. "Deactivate key svc_test_ab12"). */
  name?: string;
  /** The dialog's title, naming what changes: "Deactivate account Acme?". */
  title: string;
  /** What happens, in words. */
  effect: ReactNode;
  /** Asks for a reason (sent as `reason`, kept by the audit log). */
  reason?: boolean;
  tone?: "primary" | "secondary" | "danger";
}) {
  const id = useId();
  const { busy, error, setError, post } = useAdminPost();
  const [asking, setAsking] = useState(false);
  const [why, setWhy] = useState("");
  const run = () => post(path, { ...(body ?? {}), ...(reason ? { reason: why } : {}) }, () => setAsking(false));
  const reasonError = fieldMessage(error, "reason");
  return (
    <span className="inline-flex max-w-full flex-col items-start gap-1">
      <Button
        size="sm"
        variant={tone}
        onClick={() => {
          setError(null);
          setAsking(true);
        }}
        disabled={busy}
        aria-label={name}
      >
        {busy ? `${label}…` : label}
      </Button>
      <ConfirmDialog
        open={asking}
        title={title}
        confirmLabel={label}
        busy={busy}
        danger={tone === "danger"}
        onConfirm={run}
        onCancel={() => setAsking(false)}
      >
        <div className="text-sm">{effect}</div>
        {reason ? (
          <TextField
            id={`${id}-reason`}
            label="Reason"
            hint={`Kept in the audit log with this change (${lengthHint(REASON)}).`}
            {...fieldAttrs(REASON)}
            value={why}
            onChange={(e) => setWhy(e.target.value)}
            error={reasonError}
          />
        ) : null}
        {error && !reasonError ? <ErrorNote error={error} /> : null}
      </ConfirmDialog>
    </span>
  );
}
