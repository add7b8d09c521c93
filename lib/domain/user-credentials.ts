/** E-mail verification, password reset and operator password changes: by user id or by token, each audited. */
import "server-only";
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { authVerificationTokens, memberships, users } from "../../db/schema";
import { hashPassword } from "../crypto/password";
import { normaliseEmail } from "./accounts";
import { recordAudit, type Actor } from "./audit";
import { DomainError } from "./errors";
import { consumeToken, issueToken, tokenDigest, tokenIsLive, tokenWaiting } from "./one-time-tokens";
import { resetAddressCounters, resetTokenCounters, takeHourly } from "./portal-limits";
import { assertPassword } from "./users";
import { endUserSessions } from "./sessions";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

async function primaryAccountId(tx: Tx | Db, userId: string): Promise<string | null> {
  const rows = await tx
    .select({ accountId: memberships.accountId, role: memberships.role })
    .from(memberships)
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt));
  return (rows.find((r) => r.role === "owner") ?? rows[0])?.accountId ?? null;
}

/** A verification token for the user's address; refused when it is already verified. */
export async function startEmailVerification(db: Db, userId: string): Promise<{ email: string; token: string }> {
  const [user] = await db
    .select({ email: users.email, verified: users.emailVerified })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw new DomainError("not_found", "No such user.");
  if (user.verified) throw new DomainError("conflict", "Your e-mail address is already verified.");
  return { email: user.email, token: await issueToken(db, "verify", user.email) };
}

/**
 * Whether a verification link for the address is live: one was issued (and, with SMTP, accepted by the mail server: a
 * link whose mail failed is withdrawn) in the last 24 hours and not used. The dashboard says "we sent a link" only then.
 */
export async function verificationLinkWaiting(db: Db, email: string, now = new Date()): Promise<boolean> {
  return tokenWaiting(db, "verify", email, now);
}

const BAD_VERIFY_LINK =
  "This verification link is invalid, already used or expired. Send a new one from your dashboard.";

/** Opens a verification link: marks the address verified once; the link cannot be used again. */
export async function verifyEmailByToken(
  db: Db,
  token: string,
  actor: Omit<Actor, "type" | "id"> = {},
): Promise<{ email: string }> {
  return db.transaction(async (tx) => {
    const email = await consumeToken(tx, "verify", token);
    if (!email) throw new DomainError("invalid", BAD_VERIFY_LINK, { field: "token" });
    const [user] = await tx
      .update(users)
      .set({ emailVerified: new Date() })
      .where(and(eq(users.email, email), isNull(users.emailVerified)))
      .returning({ id: users.id });
    if (!user) throw new DomainError("invalid", BAD_VERIFY_LINK, { field: "token" });
    await recordAudit(tx, {
      actor: { ...actor, type: "user", id: user.id },
      accountId: await primaryAccountId(tx, user.id),
      action: "user.verify_email",
      target: `user:${user.id}`,
      after: { email },
    });
    return { email };
  });
}

/** Operator: marks a user's address verified (idempotent; audited only when it changes). */
export async function markEmailVerified(
  db: Db,
  userId: string,
  actor: Actor,
): Promise<{ userId: string; email: string; emailVerified: string }> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ email: users.email, verified: users.emailVerified })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!user) throw new DomainError("not_found", "No such user.");
    if (user.verified) return { userId, email: user.email, emailVerified: user.verified.toISOString() };
    const now = new Date();
    await tx.update(users).set({ emailVerified: now }).where(eq(users.id, userId));
    await tx.delete(authVerificationTokens).where(eq(authVerificationTokens.identifier, `verify:${user.email}`));
    await recordAudit(tx, {
      actor,
      accountId: await primaryAccountId(tx, userId),
      action: "user.verify_email",
      target: `user:${userId}`,
      after: { email: user.email },
    });
    return { userId, email: user.email, emailVerified: now.toISOString() };
  });
}

/** A reset token when the address belongs to a user, else null; callers answer the same either way. */
export async function startPasswordReset(
  db: Db,
  email: string,
  origin: Omit<Actor, "type" | "id"> = {},
): Promise<{ email: string; token: string } | null> {
  const normalised = normaliseEmail(email);
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, normalised));
  // Every request is audited, for a known address or not (the audit trail is not an answer to the caller).
  await recordAudit(db, {
    actor: { ...origin, type: "user", id: user?.id ?? `email:${normalised}` },
    accountId: user ? await primaryAccountId(db, user.id) : null,
    action: "user.reset_request",
    target: user ? `user:${user.id}` : `email:${normalised}`,
    after: { email: normalised, known: Boolean(user) },
  });
  if (!user) return null;
  return { email: normalised, token: await issueToken(db, "reset", normalised) };
}

async function writePassword(
  tx: Tx,
  userId: string,
  passwordHash: string,
  action: string,
  actor: Actor,
): Promise<void> {
  await tx.update(users).set({ passwordHash, passwordChangedAt: new Date() }).where(eq(users.id, userId));
  // A new password ends every session of the user (a reset link may be all the real owner has left).
  const ended = await endUserSessions(
    tx,
    userId,
    action === "user.reset_password" ? "password_reset" : "password_change",
  );
  await recordAudit(tx, {
    actor,
    accountId: await primaryAccountId(tx, userId),
    action,
    target: `user:${userId}`,
    after: { sessionsEnded: ended },
  });
}

const badResetLink = () =>
  new DomainError("invalid", "This reset link is invalid, already used or expired. Ask for a new one.", {
    field: "token",
  });

/** Completes a reset: a valid password and a live token, used once. */
export async function resetPasswordByToken(
  db: Db,
  token: string,
  password: string,
  actor: Omit<Actor, "type" | "id"> = {},
): Promise<{ email: string }> {
  // Cheap checks first: the length (no budget spent on a typo), the address's budget, then the token itself; only a
  // live token pays for scoring the password's strength and for argon2 (issue 30).
  assertPassword(password, [], true);
  await takeHourly(db, resetAddressCounters(actor.ip), "password-reset attempts from this address");
  if (!(await tokenIsLive(db, "reset", token))) throw badResetLink();
  await takeHourly(db, resetTokenCounters(tokenDigest(token)), "attempts with this reset link");
  assertPassword(password);
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const email = await consumeToken(tx, "reset", token);
    const [user] = email ? await tx.select({ id: users.id }).from(users).where(eq(users.email, email)) : [];
    if (!email || !user) throw badResetLink();
    await writePassword(tx, user.id, passwordHash, "user.reset_password", { ...actor, type: "user", id: user.id });
    return { email };
  });
}

/** Operator: sets a user's password. */
export async function setPassword(db: Db, userId: string, password: string, actor: Actor): Promise<{ userId: string }> {
  assertPassword(password);
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!user) throw new DomainError("not_found", "No such user.");
    await tx.delete(authVerificationTokens).where(eq(authVerificationTokens.identifier, `reset:${user.email}`));
    await writePassword(tx, userId, passwordHash, "user.set_password", actor);
    return { userId };
  });
}
