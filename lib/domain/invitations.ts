/**
 * Invitations to an account's team: a single-use link (256 random bits, only the SHA-256 digest stored) valid 7 days;
 * accepting joins the account with the invited role, signing a new person up on the way.
 */
import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { accounts, invitations, memberships, users } from "../../db/schema";
import { normaliseEmail } from "./accounts";
import { recordAudit, type Actor } from "./audit";
import { DomainError } from "./errors";
import { parseRole, type PendingInvitation, UUID } from "./team";
import type { Role } from "../shared/roles";
import { hashPassword } from "../crypto/password";
import { TERMS_VERSION } from "./terms";
import { assertPassword } from "./users";

export const INVITATION_TTL_MS = 7 * 24 * 3600_000;
type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
const digest = (raw: string) => createHash("sha256").update(raw).digest("hex");

/** The acting member's role; a portal actor always carries it (operators and the CLI act as Owner). */
const actorRole = (actor: Actor): Role => (actor.type === "user" ? (actor.role ?? "viewer") : "owner");

/** Only the Owner hands out Owner (an accepted Owner invitation transfers ownership). */
function assertMayGrant(actor: Actor, role: Role): void {
  if (role === "owner" && actorRole(actor) !== "owner")
    throw new DomainError("forbidden", "Only the Owner can invite a new Owner.", { field: "role" });
}

/** A new invitation; earlier unused invitations of the address to this account stop working. The token is here only. */
export async function inviteMember(
  db: Db,
  input: { accountId: string; email: unknown; role: unknown },
  actor: Actor,
  now = new Date(),
): Promise<{ invitation: PendingInvitation; token: string; accountName: string }> {
  const email = normaliseEmail(typeof input.email === "string" ? input.email : "");
  const role = parseRole(input.role);
  assertMayGrant(actor, role);
  const token = randomBytes(32).toString("base64url");
  return db.transaction(async (tx) => {
    const [account] = await tx.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, input.accountId));
    if (!account) throw new DomainError("not_found", "No such account.");
    const [member] = await tx
      .select({ id: users.id })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.accountId, input.accountId), eq(users.email, email)));
    if (member) throw new DomainError("conflict", `${email} is already a member of this account.`, { field: "email" });
    await tx
      .update(invitations)
      .set({ usedAt: now })
      .where(and(eq(invitations.accountId, input.accountId), eq(invitations.email, email), isNull(invitations.usedAt)));
    const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
    const invitedBy = actor.type === "user" && UUID.test(actor.id) ? actor.id : null;
    const [row] = await tx
      .insert(invitations)
      .values({
        accountId: input.accountId,
        email,
        role,
        tokenDigest: digest(token),
        invitedBy,
        expiresAt,
        createdAt: now,
      })
      .returning({ id: invitations.id });
    await recordAudit(tx, {
      actor,
      accountId: input.accountId,
      action: "member.invite",
      target: `invitation:${row.id}`,
      after: { email, role, expiresAt: expiresAt.toISOString() },
    });
    const invitation = { id: row.id, email, role, invitedBy: actor.email ?? null, expiresAt: expiresAt.toISOString() };
    return { invitation, token, accountName: account.name };
  });
}

/** Withdraws an unused invitation (its link stops working). */
export async function withdrawInvitation(db: Db, accountId: string, id: string, actor: Actor, now = new Date()) {
  if (!UUID.test(id)) throw new DomainError("not_found", "No such invitation.");
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(invitations)
      .set({ usedAt: now })
      .where(and(eq(invitations.id, id), eq(invitations.accountId, accountId), isNull(invitations.usedAt)))
      .returning({ email: invitations.email, role: invitations.role });
    if (!row) throw new DomainError("not_found", "No such invitation.");
    assertMayGrant(actor, row.role);
    await recordAudit(tx, {
      actor,
      accountId,
      action: "member.invite_withdraw",
      target: `invitation:${id}`,
      before: row,
    });
    return { id };
  });
}

/** What an invitation link offers, for the page that accepts it; null for an unknown, used or expired link. */
export async function describeInvitation(db: Db, token: string, now = new Date()) {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const [row] = await db
    .select({
      email: invitations.email,
      role: invitations.role,
      accountName: accounts.name,
      userExists: sql<boolean>`exists (select 1 from users u where u.email = ${invitations.email})`,
    })
    .from(invitations)
    .innerJoin(accounts, eq(accounts.id, invitations.accountId))
    .where(and(eq(invitations.tokenDigest, digest(token)), isNull(invitations.usedAt), gt(invitations.expiresAt, now)));
  return row ?? null;
}

/** Marks the link used (once, atomically) and answers its invitation; refuses a used, expired or unknown link. */
export async function takeInvitation(tx: Tx, token: string, now: Date) {
  const bad = new DomainError("invalid", "This invitation link is not valid: it was used, withdrawn or expired.", {
    field: "token",
  });
  if (typeof token !== "string" || !/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw bad;
  const [row] = await tx
    .update(invitations)
    .set({ usedAt: now })
    .where(and(eq(invitations.tokenDigest, digest(token)), isNull(invitations.usedAt), gt(invitations.expiresAt, now)))
    .returning();
  if (!row) throw bad;
  return row;
}

/**
 * Joins the invited user (whose e-mail must be the invited one) to the account with the invited role; an Owner
 * invitation transfers ownership (the previous Owner becomes Admin).
 */
export async function joinByInvitation(
  tx: Tx,
  invitation: Awaited<ReturnType<typeof takeInvitation>>,
  user: { id: string; email: string },
  actor: Actor,
): Promise<{ accountId: string; role: Role }> {
  if (user.email !== invitation.email)
    throw new DomainError("forbidden", `This invitation is for ${invitation.email}; sign in with that address.`);
  const { accountId, role } = invitation;
  const [existing] = await tx
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.accountId, accountId), eq(memberships.userId, user.id)));
  if (existing) throw new DomainError("conflict", "You are already a member of this account.");
  if (role === "owner")
    await tx
      .update(memberships)
      .set({ role: "admin" })
      .where(and(eq(memberships.accountId, accountId), eq(memberships.role, "owner")));
  await tx.insert(memberships).values({ userId: user.id, accountId, role, invitedBy: invitation.invitedBy });
  await tx.update(users).set({ currentAccountId: accountId }).where(eq(users.id, user.id));
  await tx.update(invitations).set({ acceptedBy: user.id }).where(eq(invitations.id, invitation.id));
  await recordAudit(tx, {
    actor: { ...actor, type: "user", id: user.id, email: user.email, role },
    accountId,
    action: "member.join",
    target: `user:${user.id}`,
    after: { email: user.email, role, invitation: invitation.id },
  });
  return { accountId, role };
}

export interface AcceptInvitationInput {
  token: string;
  /** A new person (no user with the invited address yet) signs up on the way: password, name, the terms. */
  password?: string;
  name?: string;
  acceptTerms?: boolean;
}

/**
 * Accepts an invitation. The invited address, if it has a user, must be the one signed in (`signedIn`); otherwise a
 * new user is created with the password given (their e-mail counts as verified: the link reached it). Nothing changes
 * and the link stays usable when a check fails.
 */
export async function acceptInvitation(
  db: Db,
  input: AcceptInvitationInput,
  signedIn: { id: string; email: string } | null,
  origin: Omit<Actor, "type" | "id">,
  now = new Date(),
): Promise<{ accountId: string; role: Role; email: string; created: boolean }> {
  const wanted = await describeInvitation(db, input.token, now);
  const passwordHash = wanted && !wanted.userExists ? await newUserPassword(input) : null;
  return db.transaction(async (tx) => {
    const invitation = await takeInvitation(tx, input.token, now);
    const [known] = await tx
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(eq(users.email, invitation.email));
    let user = known;
    if (known && signedIn?.id !== known.id)
      throw new DomainError("unauthenticated", `Sign in as ${invitation.email} to accept this invitation.`);
    if (!known) {
      if (!passwordHash) throw new DomainError("invalid", "Choose a password to join.", { field: "password" });
      [user] = await tx
        .insert(users)
        .values({
          email: invitation.email,
          name: input.name?.trim().slice(0, 200) || null,
          passwordHash,
          emailVerified: now,
          termsVersion: TERMS_VERSION,
          termsAcceptedAt: now,
        })
        .returning({ id: users.id, email: users.email });
    }
    const joined = await joinByInvitation(tx, invitation, user, { ...origin, type: "user", id: user.id });
    return { ...joined, email: user.email, created: !known };
  });
}

async function newUserPassword(input: AcceptInvitationInput): Promise<string> {
  if (typeof input.password !== "string" || input.password === "")
    throw new DomainError("invalid", "Choose a password to join.", { field: "password" });
  assertPassword(input.password);
  if (input.acceptTerms !== true)
    throw new DomainError("invalid", "Accept the terms of use to join.", { field: "acceptTerms" });
  return hashPassword(input.password);
}
