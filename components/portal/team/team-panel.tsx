"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { PendingInvitation, TeamMember } from "@/lib/domain/team";
import type { InviteInput } from "@/lib/portal/schemas";
import { ROLE_LABELS, ROLES, type Role } from "@/lib/shared/roles";
import { ConfirmDialog } from "../confirm-dialog";
import { ErrorNote } from "../error-note";
import { portalFetch } from "../portal-fetch";
import { InviteDialog } from "./invite-dialog";
import { InvitationsList, type MemberAction, MembersTable } from "./members-table";

type Team = { members: TeamMember[]; invitations: PendingInvitation[] };
const TEAM = ["portal", "team"];
const BELOW_OWNER = ROLES.filter((r) => r !== "owner");

/** The team page's live part: the members, the pending invitations, `Invite member` and the confirmations. */
export function TeamPanel({
  initial,
  me,
  manage,
  owner,
}: {
  initial: Team;
  me: string;
  manage: boolean;
  owner: boolean;
}) {
  const client = useQueryClient();
  const team = useQuery({ queryKey: TEAM, queryFn: () => portalFetch<Team>("/api/portal/team"), initialData: initial });
  const [inviting, setInviting] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const [acting, setActing] = useState<{ action: MemberAction; m: TeamMember } | null>(null);
  const [withdrawing, setWithdrawing] = useState<PendingInvitation | null>(null);
  const [role, setRole] = useState<Role>("developer");
  const refresh = () => client.invalidateQueries({ queryKey: TEAM });

  const invite = useMutation({
    mutationFn: (body: InviteInput) =>
      portalFetch<{ invitation: PendingInvitation; delivery: "smtp" | "log" }, InviteInput>(
        "/api/portal/team/invitations",
        { method: "POST", body },
      ),
    onSuccess: (r) => {
      setInviting(false);
      setSent(
        r.delivery === "smtp"
          ? `Invitation mailed to ${r.invitation.email}.`
          : `Invitation for ${r.invitation.email} created; mail is not configured, so its link is in the server log.`,
      );
      void refresh();
    },
  });
  const act = useMutation({
    mutationFn: ({ action, m }: { action: MemberAction; m: TeamMember }) => {
      const path = `/api/portal/team/members/${encodeURIComponent(m.userId)}`;
      if (action === "remove") return portalFetch(path, { method: "DELETE" });
      if (action === "role") return portalFetch(path, { method: "PATCH", body: { role } });
      return portalFetch("/api/portal/team/transfer", { method: "POST", body: { userId: m.userId } });
    },
    onSuccess: () => {
      setActing(null);
      if (acting?.action === "transfer")
        window.location.reload(); // our own role changed: every page must know
      else void refresh();
    },
  });
  const withdraw = useMutation({
    mutationFn: (i: PendingInvitation) =>
      portalFetch(`/api/portal/team/invitations/${encodeURIComponent(i.id)}`, { method: "DELETE" }),
    onSuccess: () => {
      setWithdrawing(null);
      void refresh();
    },
  });
  const data = team.data ?? initial;
  const m = acting?.m;

  return (
    <div className="space-y-6">
      {manage ? (
        <div className="flex flex-wrap items-center gap-3">
          <Button
            variant="primary"
            onClick={() => {
              invite.reset();
              setInviting(true);
            }}
          >
            Invite member
          </Button>
          {sent ? (
            <p role="status" className="text-sm">
              {sent}
            </p>
          ) : null}
        </div>
      ) : (
        <p className="text-sm text-muted">Only an Admin or the Owner can invite, change or remove members.</p>
      )}
      {team.isError ? <ErrorNote error={team.error} /> : null}
      <section aria-labelledby="members-title" className="space-y-2">
        <h2 id="members-title" className="text-base font-semibold">
          Members ({data.members.length})
        </h2>
        <MembersTable
          members={data.members}
          me={me}
          manage={manage}
          transfer={owner}
          onAction={(action, member) => {
            act.reset();
            setRole(member.role === "owner" ? "admin" : member.role);
            setActing({ action, m: member });
          }}
        />
      </section>
      <section aria-labelledby="invitations-title" className="space-y-2">
        <h2 id="invitations-title" className="text-base font-semibold">
          Pending invitations
        </h2>
        <InvitationsList
          invitations={data.invitations}
          manage={manage}
          onWithdraw={(i) => {
            withdraw.reset();
            setWithdrawing(i);
          }}
        />
      </section>
      <InviteDialog
        open={inviting}
        roles={owner ? ROLES : BELOW_OWNER}
        busy={invite.isPending}
        error={invite.error}
        onInvite={(body) => invite.mutate(body)}
        onClose={() => setInviting(false)}
      />
      <ConfirmDialog
        open={acting?.action === "remove"}
        title={`Remove ${m?.email ?? ""}?`}
        confirmLabel="Remove member"
        danger
        busy={act.isPending}
        onConfirm={() => acting && act.mutate(acting)}
        onCancel={() => setActing(null)}
      >
        <p className="text-sm">
          {m?.email} ({m ? ROLE_LABELS[m.role] : ""}) leaves this account: every session of theirs ends at once, and
          their next request is signed out. The account&apos;s keys keep working.
        </p>
        <ErrorNote error={act.error} />
      </ConfirmDialog>
      <ConfirmDialog
        open={acting?.action === "role"}
        title={`Change the role of ${m?.email ?? ""}`}
        confirmLabel="Change role"
        busy={act.isPending}
        onConfirm={() => acting && act.mutate(acting)}
        onCancel={() => setActing(null)}
      >
        <div className="space-y-1">
          <label htmlFor="member-role" className="block text-sm font-medium">
            Role
          </label>
          <select
            id="member-role"
            value={role}
            onChange={(e) => setRole(e.target.value as Role)}
            className="block w-full rounded border border-line-strong bg-surface px-3 py-2 text-fg"
          >
            {BELOW_OWNER.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        <p className="text-sm">The new role applies to their next request.</p>
        <ErrorNote error={act.error} />
      </ConfirmDialog>
      <ConfirmDialog
        open={acting?.action === "transfer"}
        title={`Make ${m?.email ?? ""} the Owner?`}
        confirmLabel="Transfer ownership"
        danger
        busy={act.isPending}
        onConfirm={() => acting && act.mutate(acting)}
        onCancel={() => setActing(null)}
      >
        <p className="text-sm">
          {m?.email} becomes the account&apos;s one Owner (plan, ownership, deleting the account). You become Admin.
        </p>
        <ErrorNote error={act.error} />
      </ConfirmDialog>
      <ConfirmDialog
        open={withdrawing !== null}
        title={`Withdraw the invitation to ${withdrawing?.email ?? ""}?`}
        confirmLabel="Withdraw invitation"
        busy={withdraw.isPending}
        onConfirm={() => withdrawing && withdraw.mutate(withdrawing)}
        onCancel={() => setWithdrawing(null)}
      >
        <p className="text-sm">The link mailed to {withdrawing?.email} stops working at once.</p>
        <ErrorNote error={withdraw.error} />
      </ConfirmDialog>
    </div>
  );
}
