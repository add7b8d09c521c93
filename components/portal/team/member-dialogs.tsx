"use client";

import type { PendingInvitation, TeamMember } from "@/lib/domain/team";
import { ROLE_LABELS, type Role } from "@/lib/shared/roles";
import { type ConfirmActions, ConfirmDialog } from "../confirm-dialog";
import { ErrorNote } from "../error-note";
import { RoleOptions } from "./role-options";
import type { MemberAction } from "./members-table";

export type MemberActing = { action: MemberAction; m: TeamMember };

/** The team page's confirmations of a member action: remove, change role (to one of `roles`), transfer ownership. */
export function MemberDialogs({
  acting,
  role,
  roles,
  onRole,
  error,
  ...common
}: {
  acting: MemberActing | null;
  role: Role;
  roles: readonly Role[];
  onRole: (role: Role) => void;
} & ConfirmActions) {
  const m = acting?.m;
  return (
    <>
      <ConfirmDialog
        open={acting?.action === "remove"}
        title={`Remove ${m?.email ?? ""}?`}
        confirmLabel="Remove member"
        danger
        {...common}
      >
        <p className="text-sm">
          {m?.email} ({m ? ROLE_LABELS[m.role] : ""}) leaves this account: every session of theirs ends at once, and
          their next request is signed out. The account&apos;s keys keep working.
        </p>
        <ErrorNote error={error} />
      </ConfirmDialog>
      <ConfirmDialog
        open={acting?.action === "role"}
        title={`Change the role of ${m?.email ?? ""}`}
        confirmLabel="Change role"
        {...common}
      >
        <div className="space-y-1">
          <label htmlFor="member-role" className="block text-sm font-medium">
            Role
          </label>
          <select
            id="member-role"
            value={role}
            onChange={(e) => onRole(e.target.value as Role)}
            className="block w-full rounded border border-line-strong bg-surface px-3 py-2 text-fg"
          >
            <RoleOptions roles={roles} />
          </select>
        </div>
        <p className="text-sm">The new role applies to their next request.</p>
        <ErrorNote error={error} />
      </ConfirmDialog>
      <ConfirmDialog
        open={acting?.action === "transfer"}
        title={`Make ${m?.email ?? ""} the Owner?`}
        confirmLabel="Transfer ownership"
        danger
        {...common}
      >
        <p className="text-sm">
          {m?.email} becomes the account&apos;s one Owner (plan, ownership, deleting the account). You become Admin.
        </p>
        <ErrorNote error={error} />
      </ConfirmDialog>
    </>
  );
}

/** The confirmation of withdrawing a pending invitation. */
export function WithdrawDialog({
  withdrawing,
  error,
  ...actions
}: { withdrawing: PendingInvitation | null } & ConfirmActions) {
  return (
    <ConfirmDialog
      open={withdrawing !== null}
      title={`Withdraw the invitation to ${withdrawing?.email ?? ""}?`}
      confirmLabel="Withdraw invitation"
      {...actions}
    >
      <p className="text-sm">The link mailed to {withdrawing?.email} stops working at once.</p>
      <ErrorNote error={error} />
    </ConfirmDialog>
  );
}
