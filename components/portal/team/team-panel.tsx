"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { PendingInvitation, TeamMember } from "@/lib/domain/team";
import type { InviteInput } from "@/lib/portal/schemas";
import { ROLES, type Role } from "@/lib/shared/roles";
import { ErrorNote } from "../error-note";
import { portalFetch } from "../portal-fetch";
import { useConfirmed } from "../use-confirmed";
import { InviteDialog } from "./invite-dialog";
import { type MemberActing, MemberDialogs, WithdrawDialog } from "./member-dialogs";
import { InvitationsList, type MemberAction, MembersTable } from "./members-table";

type Team = { members: TeamMember[]; invitations: PendingInvitation[] };
const TEAM = ["portal", "team"];
const BELOW_OWNER = ROLES.filter((r) => r !== "owner");

/** The invitation in flight: the dialog's state, the mutation and the note on what was sent. */
function useInvite(refresh: () => Promise<void>) {
  const [inviting, setInviting] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
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
  const start = () => {
    invite.reset();
    setInviting(true);
  };
  return { inviting, setInviting, sent, invite, start };
}

/** A member action awaiting confirmation (with the role it would set) and its mutation. */
function useMemberAction(refresh: () => Promise<void>) {
  const [acting, setActing] = useState<MemberActing | null>(null);
  const [role, setRole] = useState<Role>("developer");
  const act = useMutation({
    mutationFn: ({ action, m }: MemberActing) => {
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
  const start = (action: MemberAction, member: TeamMember) => {
    act.reset();
    setRole(member.role === "owner" ? "admin" : member.role);
    setActing({ action, m: member });
  };
  return { acting, setActing, role, setRole, act, start };
}

/** `Invite member` and the note on the last invitation sent, or why this member cannot invite. */
function InviteBar({ manage, sent, onInvite }: { manage: boolean; sent: string | null; onInvite: () => void }) {
  return manage ? (
    <div className="flex flex-wrap items-center gap-3">
      <Button variant="primary" onClick={onInvite}>
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
  );
}

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
  const refresh = () => client.invalidateQueries({ queryKey: TEAM });
  const invitation = useInvite(refresh);
  const { acting, setActing, role, setRole, act, ...member } = useMemberAction(refresh);
  const withdrawal = useConfirmed(
    (i: PendingInvitation) =>
      portalFetch(`/api/portal/team/invitations/${encodeURIComponent(i.id)}`, { method: "DELETE" }),
    refresh,
  );
  const { pending: withdrawing, setPending: setWithdrawing, mutation: withdraw } = withdrawal;
  const data = team.data ?? initial;

  return (
    <div className="space-y-6">
      <InviteBar manage={manage} sent={invitation.sent} onInvite={invitation.start} />
      {team.isError ? <ErrorNote error={team.error} /> : null}
      <section aria-labelledby="members-title" className="space-y-2">
        <h2 id="members-title" className="text-base font-semibold">
          Members ({data.members.length})
        </h2>
        <MembersTable members={data.members} me={me} manage={manage} transfer={owner} onAction={member.start} />
      </section>
      <section aria-labelledby="invitations-title" className="space-y-2">
        <h2 id="invitations-title" className="text-base font-semibold">
          Pending invitations
        </h2>
        <InvitationsList invitations={data.invitations} manage={manage} onWithdraw={withdrawal.start} />
      </section>
      <InviteDialog
        open={invitation.inviting}
        roles={owner ? ROLES : BELOW_OWNER}
        busy={invitation.invite.isPending}
        error={invitation.invite.error}
        onInvite={(body) => invitation.invite.mutate(body)}
        onClose={() => invitation.setInviting(false)}
      />
      <MemberDialogs
        acting={acting}
        role={role}
        roles={BELOW_OWNER}
        onRole={setRole}
        busy={act.isPending}
        error={act.error}
        onConfirm={() => acting && act.mutate(acting)}
        onCancel={() => setActing(null)}
      />
      <WithdrawDialog
        withdrawing={withdrawing}
        busy={withdraw.isPending}
        error={withdraw.error}
        onConfirm={() => withdrawing && withdraw.mutate(withdrawing)}
        onCancel={() => setWithdrawing(null)}
      />
    </div>
  );
}
