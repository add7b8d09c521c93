/**
 * An account's team (issue 32): members with roles (invitations: lib/domain/invitations.ts), role changes, removal (the member's sessions end at once) and the transfer of the one Owner. Who may do what
 * is lib/shared/roles.ts; the portal's route table checks the permission, these functions the rules between members.
 */
import "server-only";
import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { accounts, invitations, memberships, users } from "../../db/schema";
import { recordAudit, type Actor } from "./audit";
import { DomainError } from "./errors";
import { parseInput } from "./input";
import { memberRoleBody } from "../contract/portal-inputs";
import { endUserSessions } from "./sessions";
import { ROLE_LABELS, type Role } from "../shared/roles";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface TeamMember {
  userId: string;
  email: string;
  name: string | null;
  role: Role;
  joinedAt: string;
  lastSignInAt: string | null;
  invitedBy: string | null;
}

export interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  expiresAt: string;
}

/** The account's members (the Owner first, then by role and join date) and its unused, unexpired invitations. */
export async function listTeam(db: Db, accountId: string, now = new Date()) {
  const rows = await db.execute<{
    user_id: string;
    email: string;
    name: string | null;
    role: Role;
    joined_at: Date;
    last_sign_in_at: Date | null;
    invited_by: string | null;
  }>(sql`
    select m.user_id, u.email, u.name, m.role, m.created_at as joined_at,
      (select max(s.created_at) from portal_sessions s where s.user_id = m.user_id) as last_sign_in_at,
      (select i.email from users i where i.id = m.invited_by) as invited_by
    from memberships m join users u on u.id = m.user_id
    where m.account_id = ${accountId}
    order by array_position(array['owner','admin','developer','viewer'], m.role), m.created_at`);
  const members: TeamMember[] = rows.map((r) => ({
    userId: r.user_id,
    email: r.email,
    name: r.name,
    role: r.role,
    joinedAt: new Date(r.joined_at).toISOString(),
    lastSignInAt: r.last_sign_in_at ? new Date(r.last_sign_in_at).toISOString() : null,
    invitedBy: r.invited_by,
  }));
  const pending = await db
    .select({
      id: invitations.id,
      email: invitations.email,
      role: invitations.role,
      invitedBy: users.email,
      expiresAt: invitations.expiresAt,
    })
    .from(invitations)
    .leftJoin(users, eq(users.id, invitations.invitedBy))
    .where(and(eq(invitations.accountId, accountId), isNull(invitations.usedAt), gt(invitations.expiresAt, now)))
    .orderBy(asc(invitations.createdAt));
  const invited: PendingInvitation[] = pending.map((p) => ({ ...p, expiresAt: p.expiresAt.toISOString() }));
  return { members, invitations: invited };
}

export function parseRole(value: unknown): Role {
  return parseInput(memberRoleBody, { role: value }).role;
}

/** The member row to change, locked; refuses the Owner (transfer instead) and one not in the account. */
async function lockMember(tx: Tx, accountId: string, userId: string) {
  if (!UUID.test(userId)) throw new DomainError("not_found", "No such member.");
  const [row] = await tx
    .select({ role: memberships.role, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.accountId, accountId), eq(memberships.userId, userId)))
    .for("update", { of: memberships });
  if (!row) throw new DomainError("not_found", "No such member.");
  if (row.role === "owner")
    throw new DomainError("forbidden", "The Owner's role cannot change here: the Owner transfers ownership first.");
  return row;
}

/** Changes a member's role below Owner (ownership moves only by transfer: an account has exactly one Owner). */
export async function changeMemberRole(db: Db, accountId: string, userId: string, role: unknown, actor: Actor) {
  const next = parseRole(role);
  if (next === "owner")
    throw new DomainError("invalid", "Ownership moves by transfer (Transfer ownership).", { field: "role" });
  return db.transaction(async (tx) => {
    const before = await lockMember(tx, accountId, userId);
    await tx
      .update(memberships)
      .set({ role: next })
      .where(and(eq(memberships.accountId, accountId), eq(memberships.userId, userId)));
    await recordAudit(tx, {
      actor,
      accountId,
      action: "member.role",
      target: `user:${userId}`,
      before: { email: before.email, role: before.role },
      after: { email: before.email, role: next },
    });
    return { userId, email: before.email, role: next };
  });
}

/** Removes a member below Owner; every session of theirs ends at once (their next request is signed out). */
export async function removeMember(db: Db, accountId: string, userId: string, actor: Actor) {
  return db.transaction(async (tx) => {
    const before = await lockMember(tx, accountId, userId);
    await tx.delete(memberships).where(and(eq(memberships.accountId, accountId), eq(memberships.userId, userId)));
    await tx
      .update(users)
      .set({ currentAccountId: null })
      .where(and(eq(users.id, userId), eq(users.currentAccountId, accountId)));
    const sessions = await endUserSessions(tx, userId, "removed");
    await recordAudit(tx, {
      actor,
      accountId,
      action: "member.remove",
      target: `user:${userId}`,
      before: { email: before.email, role: before.role },
      after: { sessionsEnded: sessions },
    });
    return { userId, email: before.email, sessionsEnded: sessions };
  });
}

/** The Owner hands the account to another member, who becomes Owner; the previous Owner becomes Admin. */
export async function transferOwnership(db: Db, accountId: string, toUserId: string, actor: Actor) {
  return db.transaction(async (tx) => {
    const target = await lockMember(tx, accountId, toUserId);
    const [owner] = await tx
      .update(memberships)
      .set({ role: "admin" })
      .where(and(eq(memberships.accountId, accountId), eq(memberships.role, "owner")))
      .returning({ userId: memberships.userId });
    await tx
      .update(memberships)
      .set({ role: "owner" })
      .where(and(eq(memberships.accountId, accountId), eq(memberships.userId, toUserId)));
    await recordAudit(tx, {
      actor,
      accountId,
      action: "member.transfer_ownership",
      target: `user:${toUserId}`,
      before: { owner: owner?.userId ?? null, role: target.role },
      after: { owner: toUserId, email: target.email, previousOwnerRole: "admin" },
    });
    return { owner: toUserId, email: target.email };
  });
}

/** The account the portal acts on for a member of several; one they do not belong to answers 404. */
export async function switchAccount(db: Db, userId: string, accountId: unknown) {
  const id = typeof accountId === "string" && UUID.test(accountId) ? accountId : null;
  const [row] = id
    ? await db
        .select({ role: memberships.role, name: accounts.name })
        .from(memberships)
        .innerJoin(accounts, eq(accounts.id, memberships.accountId))
        .where(and(eq(memberships.userId, userId), eq(memberships.accountId, id)))
    : [];
  if (!row || !id) throw new DomainError("not_found", "You are not a member of that account.", { field: "accountId" });
  await db.update(users).set({ currentAccountId: id }).where(eq(users.id, userId));
  return { accountId: id, name: row.name, role: row.role, roleLabel: ROLE_LABELS[row.role] };
}
