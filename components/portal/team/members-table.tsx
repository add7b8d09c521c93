"use client";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { actionsColumn, type Column, DataTable } from "@/components/ui/data-table";
import type { PendingInvitation, TeamMember } from "@/lib/domain/team";
import { ROLE_LABELS } from "@/lib/shared/roles";
import { utcMinute } from "../format";

export type MemberAction = "role" | "remove" | "transfer";

interface MemberPermissions {
  me: string;
  /** The member may change roles and remove members below Owner. */
  manage: boolean;
  /** The member is the Owner and may hand ownership over. */
  transfer: boolean;
  onAction: (action: MemberAction, m: TeamMember) => void;
}

const memberColumns = (
  { me, manage, transfer, onAction }: MemberPermissions,
  actions: boolean,
): Column<TeamMember>[] => [
  {
    id: "member",
    header: "Member",
    rowHeader: true,
    cell: (m) => (
      <>
        <span className="block truncate" title={m.email}>
          {m.email}
          {m.userId === me ? <span className="font-normal text-muted"> (you)</span> : null}
        </span>
        {m.name ? <span className="block truncate text-xs font-normal text-muted">{m.name}</span> : null}
      </>
    ),
  },
  {
    id: "role",
    header: "Role",
    width: "w-28",
    cell: (m) => <Badge tone={m.role === "owner" ? "info" : "neutral"}>{ROLE_LABELS[m.role]}</Badge>,
  },
  {
    id: "last-sign-in",
    header: "Last sign-in",
    width: "w-44",
    className: "text-xs tabular-nums",
    cell: (m) => utcMinute(m.lastSignInAt),
  },
  {
    id: "invited-by",
    header: "Invited by",
    width: "w-60",
    className: "min-w-0 text-xs",
    cell: (m) => (
      <span className="truncate max-md:[overflow-wrap:anywhere] md:block" title={m.invitedBy ?? undefined}>
        {m.invitedBy ?? "Created the account"}
      </span>
    ),
  },
  actionsColumn(
    (m) => (m.role !== "owner" ? <RowButtons m={m} manage={manage} transfer={transfer} onAction={onAction} /> : null),
    { width: "w-64", when: actions },
  ),
];

/** The members: e-mail and name, role, last sign-in, who invited them; actions on rows below Owner when allowed. */
export function MembersTable({ members, ...permissions }: { members: TeamMember[] } & MemberPermissions) {
  // The column exists only when a row has buttons (never the Owner's own), so the e-mails keep its width otherwise.
  const actions = (permissions.manage || permissions.transfer) && members.some((m) => m.role !== "owner");
  return (
    <DataTable
      caption="Members of this account"
      columns={memberColumns(permissions, actions)}
      rows={members}
      rowKey={(m) => m.userId}
      rowData={(m) => ({ "data-member": m.email })}
    />
  );
}

function RowButtons({
  m,
  manage,
  transfer,
  onAction,
}: {
  m: TeamMember;
  manage: boolean;
  transfer: boolean;
  onAction: (action: MemberAction, m: TeamMember) => void;
}) {
  return (
    <span className="inline-flex flex-wrap gap-1.5">
      {manage ? (
        <>
          <Button size="sm" onClick={() => onAction("role", m)} aria-label={`Change role of ${m.email}`}>
            Change role
          </Button>
          <Button size="sm" variant="danger" onClick={() => onAction("remove", m)} aria-label={`Remove ${m.email}`}>
            Remove
          </Button>
        </>
      ) : null}
      {transfer ? (
        <Button size="sm" onClick={() => onAction("transfer", m)} aria-label={`Transfer ownership to ${m.email}`}>
          Make Owner
        </Button>
      ) : null}
    </span>
  );
}

/** Invitations not yet used: the address, the role, who invited and when the link expires; Withdraw when allowed. */
export function InvitationsList({
  invitations,
  manage,
  onWithdraw,
}: {
  invitations: PendingInvitation[];
  manage: boolean;
  onWithdraw: (i: PendingInvitation) => void;
}) {
  if (invitations.length === 0) return <p className="text-sm text-muted">No invitations are waiting.</p>;
  return (
    <ul className="divide-y divide-line rounded-lg border border-line bg-surface">
      {invitations.map((i) => (
        <li key={i.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
          <span className="min-w-0">
            <span className="block truncate font-medium">{i.email}</span>
            <span className="text-xs text-muted">
              {ROLE_LABELS[i.role]} · invited by {i.invitedBy ?? "an operator"} · link expires {utcMinute(i.expiresAt)}
            </span>
          </span>
          {manage ? (
            <Button size="sm" onClick={() => onWithdraw(i)} aria-label={`Withdraw the invitation to ${i.email}`}>
              Withdraw
            </Button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
