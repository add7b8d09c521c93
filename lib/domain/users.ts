/** People: sign-up, credentials and the portal's view of a user. */
import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { accounts, memberships, users } from "../../db/schema";
import { hashPassword, verifyPassword } from "../crypto/password";
import { newPassword } from "../contract/portal-inputs";
import { passwordWeakness } from "../crypto/password-strength";
import {
  type AccountView,
  createAccount,
  createAccountInTx,
  emailProblem,
  isEmailAddress,
  normaliseEmail,
  openOwnAccount,
  type SignupActor,
} from "./accounts";
import { recordAudit } from "./audit";
import { DomainError } from "./errors";
import { signupCounters, takeHourly } from "./portal-limits";
import { TERMS_VERSION } from "./terms";
import type { Role } from "../shared/roles";

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
  role: Role;
  /** Every account the user belongs to (the account switcher), in the order they joined. */
  accounts: { accountId: string; name: string; role: Role }[];
}

export interface SignupInput {
  email: string;
  password: string;
  name?: string;
  acceptTerms: boolean;
}

/** What is wrong with a new password, in plain words: its length, or how easy it is to guess (with the user's own
 * e-mail and name as words a guesser would try first); undefined when it is fine. */
export function passwordProblem(password: string, userInputs: string[] = []): string | undefined {
  return lengthProblem(password) ?? passwordWeakness(password, userInputs);
}

const lengthProblem = (password: string) => newPassword.safeParse(password).error?.issues[0]?.message;

/** `lengthOnly`: the free check, for callers that score strength later, once the request has earned it. */
export function assertPassword(password: string, userInputs: string[] = [], lengthOnly = false): void {
  const problem = lengthOnly ? lengthProblem(password) : passwordProblem(password, userInputs);
  if (problem) throw new DomainError("invalid", problem, { field: "password" });
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

/** Every invalid sign-up field with what to do about it, in plain words; empty when the form is fine. */
export function signUpProblems(input: SignupInput): Record<string, string> {
  const problems: Record<string, string> = {};
  const email = input.email.trim().toLowerCase();
  if (!isEmailAddress(email)) problems.email = emailProblem(email);
  const password = passwordProblem(input.password, [email, input.name ?? ""]);
  if (password) problems.password = password;
  if (input.acceptTerms !== true) problems.acceptTerms = "Accept the terms of use to create an account.";
  return problems;
}

const FIELD_NAMES: Record<string, string> = { email: "E-mail", password: "Password", acceptTerms: "Terms of use" };

async function checkSignUp(db: Db, input: SignupInput, actor: SignupActor) {
  const problems = signUpProblems(input);
  const fields = Object.keys(problems);
  if (fields.length > 0)
    throw new DomainError("invalid", fields.map((f) => `${FIELD_NAMES[f]}: ${problems[f]}`).join(" "), {
      field: fields[0],
      fields: problems,
    });
  const email = normaliseEmail(input.email);
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

/** A sign-in's answer: the user, a wrong e-mail or password, or a right password on an account that is deactivated. */
export type SignInCheck =
  | { kind: "ok"; user: { id: string; email: string; name: string | null } }
  | { kind: "wrong" }
  | { kind: "deactivated" };

/**
 * Checks an e-mail and password (the same answer for an unknown e-mail and a wrong password). Only after the right
 * password does it tell that every account of the person is deactivated, so they know why they cannot sign in. A
 * person with no membership left (removed from every team, or their account deleted) gets a new Sandbox account of
 * their own, as at sign-up, and signs in to it (docs/teams.md).
 */
export async function checkSignIn(db: Db, email: string, password: string): Promise<SignInCheck> {
  let normalised: string;
  try {
    normalised = normaliseEmail(email);
  } catch {
    return { kind: "wrong" };
  }
  const [row] = await db
    .select({ id: users.id, email: users.email, name: users.name, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, normalised));
  const ok = await verifyPassword(row?.passwordHash ?? null, password);
  if (!ok || !row) return { kind: "wrong" };
  const statuses = await db
    .select({ status: accounts.status })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(eq(memberships.userId, row.id));
  if (statuses.some((a) => a.status === "active"))
    return { kind: "ok", user: { id: row.id, email: row.email, name: row.name } };
  if (statuses.length > 0) return { kind: "deactivated" };
  await openOwnAccount(db, row.id);
  return { kind: "ok", user: { id: row.id, email: row.email, name: row.name } };
}

/** The user for a correct e-mail and password whose person may sign in (an active account), else null. */
export async function verifyCredentials(
  db: Db,
  email: string,
  password: string,
): Promise<{ id: string; email: string; name: string | null } | null> {
  const checked = await checkSignIn(db, email, password);
  return checked.kind === "ok" ? checked.user : null;
}

/** The portal's view of a signed-in user, read fresh so a removed membership or a new verification shows at once. */
export async function loadPortalUser(db: Db, userId: string): Promise<PortalUser | null> {
  return (await loadPortalSession(db, userId))?.user ?? null;
}

/**
 * The user plus whether they accepted the current terms (a new TERMS_VERSION asks again) and which version they last
 * accepted (null: never); null when the session
 * (signed in at `authAt`, epoch milliseconds) started before the password last changed.
 */
export async function loadPortalSession(
  db: Db,
  userId: string,
  authAt?: number,
): Promise<{ user: PortalUser; termsCurrent: boolean; termsAccepted: number | null } | null> {
  if (!/^[0-9a-f-]{36}$/i.test(userId)) return null;
  const rows = await db
    .select({
      userId: users.id,
      email: users.email,
      name: users.name,
      emailVerified: users.emailVerified,
      isAdmin: users.isAdmin,
      accountId: memberships.accountId,
      accountName: accounts.name,
      role: memberships.role,
      currentAccountId: users.currentAccountId,
      termsVersion: users.termsVersion,
      passwordChangedAt: users.passwordChangedAt,
    })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(and(eq(users.id, userId)))
    .orderBy(asc(memberships.createdAt));
  // The chosen account (the switcher), else the one they own, else the first they joined.
  const row = rows.find((r) => r.accountId === r.currentAccountId) ?? rows.find((r) => r.role === "owner") ?? rows[0];
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
    accounts: rows.map((r) => ({ accountId: r.accountId, name: r.accountName, role: r.role })),
  };
  return { user, termsCurrent: row.termsVersion === TERMS_VERSION, termsAccepted: row.termsVersion };
}
