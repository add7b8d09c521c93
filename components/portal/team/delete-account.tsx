"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Field } from "@/components/auth/field";
import { Button } from "@/components/ui/button";
import type { DeleteAccountInput } from "@/lib/portal/schemas";
import { ConfirmDialog } from "../confirm-dialog";
import { ErrorNote } from "../error-note";
import { PortalApiError, portalFetch } from "../portal-fetch";

export interface DeletionPreview {
  name: string;
  keys: number;
  webhooks: number;
  members: number;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The Owner's danger zone: `Delete account`, confirmed by typing the account's name or their e-mail. */
export function DeleteAccount({ preview, email }: { preview: DeletionPreview; email: string }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const remove = useMutation({
    mutationFn: (body: DeleteAccountInput) => portalFetch("/api/portal/accounts/current", { method: "DELETE", body }),
    // Every session of every member ended on the server (the cookie is refused, then cleared): off to sign-in, saying why.
    onSuccess: () => window.location.assign("/signin?deleted=1"),
  });
  const sameAsEmail = preview.name.trim().toLowerCase() === email.toLowerCase();
  const t = typed.trim();
  const matches = t !== "" && (t === preview.name.trim() || t.toLowerCase() === email.toLowerCase());
  const fieldError =
    remove.error instanceof PortalApiError && remove.error.field === "confirm" ? remove.error.message : undefined;
  return (
    <section aria-labelledby="danger-title" className="space-y-2">
      <h2 id="danger-title" className="text-base font-semibold">
        Danger zone
      </h2>
      <div className="flex flex-col gap-3 rounded-lg border border-bad/40 p-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0 space-y-1">
          <p className="text-sm font-medium">Delete this account</p>
          <p className="text-sm text-muted">
            Revokes every API key at once, stops its webhooks and signs every member out. The audit log and usage
            records are kept. This cannot be undone.
          </p>
        </div>
        <Button
          variant="danger"
          onClick={() => {
            remove.reset();
            setTyped("");
            setOpen(true);
          }}
        >
          Delete account
        </Button>
      </div>
      <ConfirmDialog
        open={open}
        title={`Delete ${preview.name}?`}
        confirmLabel="Delete account"
        danger
        busy={remove.isPending || remove.isSuccess}
        disabled={!matches}
        onConfirm={() => matches && remove.mutate({ confirm: typed })}
        onCancel={() => setOpen(false)}
      >
        <DeletionEffects preview={preview} />
        <Field
          label={`Type ${sameAsEmail ? email : `${preview.name} or your e-mail`} to confirm`}
          name="delete-confirm"
          autoComplete="off"
          spellCheck={false}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          error={fieldError}
        />
        {remove.error && !fieldError ? <ErrorNote error={remove.error} /> : null}
      </ConfirmDialog>
    </section>
  );
}

/** What ends, counted: the keys that still work, the live webhooks, the members (lines with nothing to end are left out). */
function DeletionEffects({ preview }: { preview: DeletionPreview }) {
  return (
    <ul className="list-disc space-y-1 pl-5 text-sm">
      {preview.keys > 0 ? (
        <li>
          {plural(preview.keys, "API key")} {preview.keys === 1 ? "is" : "are"} revoked: calls with{" "}
          {preview.keys === 1 ? "it" : "them"} answer 401 within 5 seconds.
        </li>
      ) : null}
      {preview.webhooks > 0 ? (
        <li>
          {plural(preview.webhooks, "webhook")} {preview.webhooks === 1 ? "stops" : "stop"} for good; queued deliveries
          are cancelled.
        </li>
      ) : null}
      <li>
        {preview.members === 1
          ? "You are signed out and lose access"
          : `${plural(preview.members, "member")}, you included, are signed out and lose access`}
        ; pending invitations stop working.
      </li>
      <li>The audit log, usage and billing records are kept. Nothing can be restored.</li>
    </ul>
  );
}
