"use client";

import { useState, type FormEvent } from "react";
import { Field } from "@/components/auth/field";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { fieldAttrs } from "@/lib/contract/field-attrs";
import { inviteBody, type InviteInput } from "@/lib/contract/portal-inputs";
import type { Role } from "@/lib/shared/roles";
import { ErrorNote } from "../error-note";
import { RoleOptions } from "./role-options";
import { PortalApiError } from "../portal-fetch";

const ROLE_HINTS: Record<Role, string> = {
  owner: "Everything, including the plan and deleting the account; you become Admin when they accept.",
  admin: "Live keys, live webhooks, allowed origins and members below Owner.",
  developer: "Test keys, the playground and test webhooks.",
  viewer: "Reads usage, logs, keys' metadata and the docs.",
};

/** `Invite member`: E-mail and Role; the roles offered are those the member may hand out (Owner only by the Owner). */
export function InviteDialog({
  open,
  roles,
  busy,
  error,
  onInvite,
  onClose,
}: {
  open: boolean;
  roles: readonly Role[];
  busy: boolean;
  error: unknown;
  onInvite: (input: InviteInput) => void;
  onClose: () => void;
}) {
  const [role, setRole] = useState<Role>("developer");
  const emailError =
    error instanceof PortalApiError && error.field === "email" && error.code !== "rate_limited"
      ? error.message
      : undefined;
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    onInvite({ email: String(form.get("email") ?? ""), role });
  }
  return (
    <Dialog open={open} onOpenChange={(o) => (o ? undefined : onClose())} title="Invite member">
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field
          label="E-mail"
          name="email"
          type="email"
          autoComplete="off"
          {...fieldAttrs(inviteBody.shape.email)}
          error={emailError}
        />
        <div className="space-y-1">
          <label htmlFor="invite-role" className="block text-sm font-medium">
            Role
          </label>
          <select
            id="invite-role"
            name="role"
            value={role}
            onChange={(e) => setRole(e.target.value as Role)}
            aria-describedby="invite-role-hint"
            className="block w-full rounded border border-line-strong bg-surface px-3 py-2 text-fg"
          >
            <RoleOptions roles={roles} />
          </select>
          <p id="invite-role-hint" className="text-xs text-muted">
            {ROLE_HINTS[role]}
          </p>
        </div>
        <p className="text-sm text-muted">
          We mail a link that works once and expires in 7 days. Someone without an account chooses a password on the
          way.
        </p>
        {error && !emailError ? <ErrorNote error={error} /> : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={busy}>
            {busy ? "Sending…" : "Send invitation"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
