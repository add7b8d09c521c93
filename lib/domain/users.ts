/** People: sign-up, credentials and the portal's view of a user. */
import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { accounts, memberships, users } from "../../db/schema";
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN, verifyPassword } from "../crypto/password";
import { type AccountView, createAccount, createAccountInTx, normaliseEmail, type SignupActor } from "./accounts";
import { recordAudit } from "./audit";
import { DomainError } from "./errors";
import { signupCounters, takeHourly } from "./portal-limits";
import { TERMS_VERSION } from "./terms";

/**
 * The signed-in person as every portal page, portal route and admin page sees them (session checked against the db).
 */
export interface PortalUser {
  userId: string;
  email: string;
  name: string | null;
  emailVerified: boolean;
  isAdmin: boolean;
  /** The account (tenant) the portal is acting on, and the user's role in it. */
  accountId: string;
  role: "owner" | "member";
}

export interface SignupInput {
  email: string;
  password: string;
  name?: string;
  acceptTerms: boolean;
}

export function assertPassword(password: string): void {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw new DomainError("invalid", `A password has ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`, {
      field: "password",
    });
  }
}

/** Sign-up: the user, a new Sandbox account and the owner membership in one transaction, with the accepted terms. */
export async function signUp(db: Db, input: SignupInput, actor: SignupActor) {
  const { email, passwordHash } = await checkSignUp(db, input, actor);
  return createAccount(db, signUpAccount(email, input, passwordHash), actor);
}

/** What sign-up found: a new account, or an address that already has one (nothing created). */
export type SignUpOutcome =
  | { kind: "created"; account: AccountView }
  | { kind: "exists"; userId: string; email: string };

/**
 * Sign-up for the portal's public form, which answers alike whether or not the address has an account (the caller
 * mails the person what happened): the same checks, the same password hashing and one transaction with an audit row
 * either way. An existing address is recorded (`user.signup_existing`), never changed.
 */
export async function signUpQuietly(db: Db, input: SignupInput, actor: SignupActor): Promise<SignUpOutcome> {
  const { email, passwordHash } = await checkSignUp(db, input, actor);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
    if (!existing) {
      const account = await createAccountInTx(tx, signUpAccount(email, input, passwordHash), actor);
      return { kind: "created", account };
    }
    await recordAudit(tx, {
      actor: { ...actor, type: "user", id: `email:${email}` },
      action: "user.signup_existing",
      target: `user:${existing.id}`,
      after: { email },
    });
    return { kind: "exists", userId: existing.id, email };
  });
}

async function checkSignUp(db: Db, input: SignupInput, actor: SignupActor) {
  const email = normaliseEmail(input.email);
  assertPassword(input.password);
  if (input.acceptTerms !== true)
    throw new DomainError("invalid", "Accept the terms of use to create an account.", { field: "acceptTerms" });
  await takeHourly(db, signupCounters(actor.ip), "sign-ups from this address");
  return { email, passwordHash: await hashPassword(input.password) };
}

function signUpAccount(email: string, input: SignupInput, passwordHash: string) {
  return {
    email,
    name: input.name,
    plan: "sandbox" as const,
    passwordHash,
    terms: { version: TERMS_VERSION, acceptedAt: new Date() },
  };
}

/**
 * The user id for a correct e-mail and password, else null (the same answer for an unknown e-mail and a wrong
 * password).
 */
export async function verifyCredentials(
  db: Db,
  email: string,
  password: string,
): Promise<{ id: string; email: string; name: string | null } | null> {
  let normalised: string;
  try {
    normalised = normaliseEmail(email);
  } catch {
    return null;
  }
  const [row] = await db
    .select({ id: users.id, email: users.email, name: users.name, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, normalised));
  const ok = await verifyPassword(row?.passwordHash ?? null, password);
  if (!ok || !row) return null;
  // A person whose every account is deactivated cannot sign in (the same answer as a wrong password).
  const live = await db
    .select({ id: accounts.id })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(and(eq(memberships.userId, row.id), eq(accounts.status, "active")))
    .limit(1);
  return live.length ? { id: row.id, email: row.email, name: row.name } : null;
}

/** The portal's view of a signed-in user, read fresh so a removed membership or a new verification shows at once. */
export async function loadPortalUser(db: Db, userId: string): Promise<PortalUser | null> {
  return (await loadPortalSession(db, userId))?.user ?? null;
}

/**
 * The user plus whether they accepted the current terms (a new TERMS_VERSION asks again); null when the session
 * (signed in at `authAt`, epoch milliseconds) started before the password last changed.
 */
export async function loadPortalSession(
  db: Db,
  userId: string,
  authAt?: number,
): Promise<{ user: PortalUser; termsCurrent: boolean } | null> {
  if (!/^[0-9a-f-]{36}$/i.test(userId)) return null;
  const rows = await db
    .select({
      userId: users.id,
      email: users.email,
      name: users.name,
      emailVerified: users.emailVerified,
      isAdmin: users.isAdmin,
      accountId: memberships.accountId,
      role: memberships.role,
      termsVersion: users.termsVersion,
      passwordChangedAt: users.passwordChangedAt,
    })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .where(and(eq(users.id, userId)))
    .orderBy(asc(memberships.createdAt));
  const row = rows.find((r) => r.role === "owner") ?? rows[0];
  if (!row) return null;
  if (row.passwordChangedAt && authAt !== undefined && authAt < row.passwordChangedAt.getTime()) return null;
  const user: PortalUser = {
    userId: row.userId,
    email: row.email,
    name: row.name,
    emailVerified: row.emailVerified !== null,
    isAdmin: row.isAdmin,
    accountId: row.accountId,
    role: row.role,
  };
  return { user, termsCurrent: row.termsVersion === TERMS_VERSION };
}
