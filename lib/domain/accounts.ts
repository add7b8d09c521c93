/**
 * Accounts, the people in them and their plans: the same functions serve the CLI, the portal and the admin console (by
 * id; the CLI resolves e-mails first).
 */
import "server-only";
import { announceKeyStanding } from "../keys/standing";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { accounts, apiKeys, memberships, plans, users } from "../../db/schema";
import { endUserSessions } from "./sessions";
import { recordAudit, type Actor } from "./audit";
import { DomainError } from "./errors";
import { parseInput } from "./input";
import { planBody } from "../contract/portal-inputs";
import { followAccountPlan, followAccountStatus } from "./webhook-lifecycle";
import type { PlanId } from "./plans-catalogue";
import type { AccountStatus } from "../shared/account-status";

export interface AccountView {
  accountId: string;
  userId: string;
  email: string;
  plan: PlanId;
  status: AccountStatus;
  admin: boolean;
}

/**
 * A strict address grammar: a dot-atom local part (letters, digits and !#$%&'*+/=?^_`{|}~- , dots only between atoms)
 * and a domain of LDH labels with an alphabetic top-level label; no quotes, comments, IP literals or markup.
 */
const LOCAL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export function isEmailAddress(e: string): boolean {
  if (e.length > 254) return false;
  const at = e.lastIndexOf("@");
  if (at < 1 || at > 64) return false;
  const local = e.slice(0, at);
  const labels = e.slice(at + 1).split(".");
  if (!LOCAL.test(local) || labels.length < 2) return false;
  if (!labels.every((l) => LABEL.test(l))) return false;
  return /^[a-z]{2,63}$/.test(labels[labels.length - 1]) || /^xn--[a-z0-9-]{1,59}$/.test(labels[labels.length - 1]);
}

/** What is wrong with an address, in plain words (never an empty pair of quotes). */
export function emailProblem(trimmed: string): string {
  return trimmed === ""
    ? "Enter your e-mail address."
    : `${trimmed.slice(0, 80)} is not an e-mail address; it looks like name@example.com.`;
}

export function normaliseEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (!isEmailAddress(e)) throw new DomainError("invalid", emailProblem(e), { field: "email" });
  return e;
}

export function assertPlan(plan: string): PlanId {
  return parseInput(planBody, { plan }).plan;
}

export interface NewAccountInput {
  email: string;
  plan?: string;
  admin?: boolean;
  name?: string;
  /** An argon2id hash, already computed by the caller (sign-up); operators' accounts start without a password. */
  passwordHash?: string | null;
  emailVerified?: Date | null;
  terms?: { version: number; acceptedAt: Date };
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Sign-up: the actor is the user being created, whose id exists only inside the transaction. */
export type SignupActor = Omit<Actor, "type" | "id"> & { type: "self" };

/** Creates the user, a new account and the owner membership in one transaction (sign-up, CLI, demo). */
export async function createAccount(db: Db, input: NewAccountInput, actor: Actor | SignupActor): Promise<AccountView> {
  const email = normaliseEmail(input.email);
  const plan = assertPlan(input.plan ?? "sandbox");
  return db.transaction((tx) => createAccountInTx(tx, { ...input, email, plan }, actor));
}

export async function createAccountInTx(
  tx: Tx,
  input: NewAccountInput & { email: string; plan: PlanId },
  actor: Actor | SignupActor,
): Promise<AccountView> {
  const existing = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.email));
  if (existing.length)
    throw new DomainError("conflict", `an account for ${input.email} already exists`, { field: "email" });
  const [user] = await tx
    .insert(users)
    .values({
      email: input.email,
      name: input.name?.trim() || null,
      isAdmin: input.admin ?? false,
      passwordHash: input.passwordHash ?? null,
      emailVerified: input.emailVerified ?? null,
      termsVersion: input.terms?.version ?? null,
      termsAcceptedAt: input.terms?.acceptedAt ?? null,
    })
    .returning({ id: users.id });
  const account = await insertOwnedAccount(tx, {
    userId: user.id,
    name: input.name?.trim() || input.email,
    plan: input.plan,
    actor: actor.type === "self" ? { ...actor, type: "user", id: user.id } : actor,
    after: { email: input.email, plan: input.plan, admin: input.admin ?? false },
  });
  return {
    accountId: account.id,
    userId: user.id,
    email: input.email,
    plan: input.plan,
    status: account.status,
    admin: input.admin ?? false,
  };
}

/** A new account, its Owner's membership and its `account.create` audit row (sign-up, CLI, demo, a sign-in with none). */
async function insertOwnedAccount(
  tx: Tx,
  input: { userId: string; name: string; plan: PlanId; actor: Actor; after: Record<string, unknown> },
) {
  const [account] = await tx.insert(accounts).values({ name: input.name, planId: input.plan }).returning();
  await tx.insert(memberships).values({ userId: input.userId, accountId: account.id, role: "owner" });
  await recordAudit(tx, {
    actor: input.actor,
    accountId: account.id,
    action: "account.create",
    target: `account:${account.id}`,
    after: input.after,
  });
  return account;
}

/**
 * A new Sandbox account owned by a person who has none left (removed from every team, or their account deleted), so
 * signing in again works like signing up did; null when they still have one (nothing made). The user row is locked, so
 * two sign-ins at once make one account.
 */
export async function openOwnAccount(db: Db, userId: string): Promise<{ accountId: string } | null> {
  return db.transaction(async (tx) => {
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId)).for("update");
    if (!user) return null;
    const [member] = await tx
      .select({ id: memberships.accountId })
      .from(memberships)
      .where(eq(memberships.userId, userId))
      .limit(1);
    if (member) return null;
    const account = await insertOwnedAccount(tx, {
      userId,
      name: user.email,
      plan: "sandbox",
      actor: { type: "user", id: userId, email: user.email },
      after: { email: user.email, plan: "sandbox", reason: "signed in with no account left" },
    });
    await tx.update(users).set({ currentAccountId: account.id }).where(eq(users.id, userId));
    return { accountId: account.id };
  });
}

/** The account a person owns (their first membership as owner, else their first membership). */
export async function findAccountByEmail(db: Db, email: string): Promise<AccountView | null> {
  const rows = await db
    .select({
      accountId: accounts.id,
      userId: users.id,
      email: users.email,
      plan: accounts.planId,
      status: accounts.status,
      admin: users.isAdmin,
      role: memberships.role,
    })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(eq(users.email, normaliseEmail(email)))
    .orderBy(asc(memberships.createdAt));
  const row = rows.find((r) => r.role === "owner") ?? rows[0];
  return row
    ? {
        accountId: row.accountId,
        userId: row.userId,
        email: row.email,
        plan: row.plan as PlanId,
        status: row.status,
        admin: row.admin,
      }
    : null;
}

/** For the CLI: resolves an e-mail to the account id the domain functions take. */
export async function requireAccountByEmail(db: Db, email: string): Promise<AccountView> {
  const found = await findAccountByEmail(db, email);
  if (!found) throw new DomainError("not_found", `no account for ${normaliseEmail(email)}`, { field: "email" });
  return found;
}

export async function getAccount(db: Db, accountId: string) {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!row) throw new DomainError("not_found", "no such account");
  return row;
}

export async function setAccountPlan(db: Db, accountId: string, plan: string, actor: Actor) {
  const planId = assertPlan(plan);
  const changed = db.transaction(async (tx) => {
    const [before] = await tx
      .select({ planId: accounts.planId, status: accounts.status })
      .from(accounts)
      .where(eq(accounts.id, accountId))
      .for("update");
    assertNotDeleted(before);
    const [after] = await tx.update(accounts).set({ planId }).where(eq(accounts.id, accountId)).returning();
    const [plan] = await tx.select({ webhooks: plans.webhooks }).from(plans).where(eq(plans.id, planId));
    await followAccountPlan(tx, accountId, Boolean(plan?.webhooks), actor);
    await recordAudit(tx, {
      actor,
      accountId,
      action: "account.set_plan",
      target: `account:${accountId}`,
      before: { plan: before.planId },
      after: { plan: planId },
    });
    return { accountId, plan: planId as PlanId, status: after.status };
  });
  return announceKeyStanding(changed, { accountId });
}

/**
 * Deactivation switches the account off: its active keys become inactive (marked disabled_by 'account_deactivated') and
 * its members' sessions end; sign-in is refused while it is off. Reactivation switches back on exactly the keys the
 * deactivation switched off, nothing the owner had switched off or revoked. The audit row lists the keys either way.
 * Webhooks follow the same rule (lib/domain/webhook-lifecycle.ts).
 */
/** `reason`: why (an operator's deactivation gives one; the audit log keeps it). */
export async function setAccountStatus(
  db: Db,
  accountId: string,
  status: "active" | "inactive",
  actor: Actor,
  reason?: string,
) {
  const changed = db.transaction(async (tx) => {
    const [before] = await tx
      .select({ status: accounts.status })
      .from(accounts)
      .where(eq(accounts.id, accountId))
      .for("update");
    assertNotDeleted(before);
    const [after] = await tx.update(accounts).set({ status }).where(eq(accounts.id, accountId)).returning();
    let keys: { id: string }[] = [];
    if (before.status !== status && status === "inactive") {
      keys = await tx
        .update(apiKeys)
        .set({ status: "inactive", disabledBy: DISABLED_BY_DEACTIVATION })
        .where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.status, "active")))
        .returning({ id: apiKeys.id });
      const members = await tx
        .select({ userId: memberships.userId })
        .from(memberships)
        .where(eq(memberships.accountId, accountId));
      for (const m of members) await endUserSessions(tx, m.userId, "deactivated");
    } else if (before.status !== status) {
      keys = await tx
        .update(apiKeys)
        .set({ status: "active", disabledBy: null })
        .where(
          and(
            eq(apiKeys.accountId, accountId),
            eq(apiKeys.status, "inactive"),
            eq(apiKeys.disabledBy, DISABLED_BY_DEACTIVATION),
          ),
        )
        .returning({ id: apiKeys.id });
    }
    // Its webhooks follow the account the same way (webhooks.disabled_by), each change with its own audit row.
    if (before.status !== status) await followAccountStatus(tx, accountId, status, actor);
    await recordAudit(tx, {
      actor,
      accountId,
      action: `account.${status === "active" ? "activate" : "deactivate"}`,
      target: `account:${accountId}`,
      before: { status: before.status },
      after: { status, keys: keys.map((k) => k.id).sort(), ...(reason ? { reason } : {}) },
    });
    return { accountId, plan: after.planId as PlanId, status };
  });
  return announceKeyStanding(changed, { accountId });
}

export const DISABLED_BY_DEACTIVATION = "account_deactivated";

/** A deleted account (lib/domain/account-deletion.ts) stays deleted: no plan change, no reactivation. */
function assertNotDeleted(account: { status: AccountStatus } | undefined): asserts account {
  if (!account) throw new DomainError("not_found", "no such account");
  if (account.status === "deleted")
    throw new DomainError("conflict", "This account was deleted by its Owner; it cannot be changed or reactivated.");
}

/** Whether a user belongs to an account, and as what; portal routes check it before touching the account. */
export async function membershipOf(db: Db, userId: string, accountId: string) {
  const [row] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.accountId, accountId)));
  return row?.role ?? null;
}

export interface AccountListItem {
  accountId: string;
  name: string;
  plan: PlanId;
  status: AccountStatus;
  owner: string | null;
  members: number;
  keys: number;
  createdAt: string;
}

/** Every account with its owner's e-mail and counts, oldest first (operators who need an id). */
export async function listAccounts(db: Db): Promise<AccountListItem[]> {
  const rows = await db.execute<{
    id: string;
    name: string;
    plan_id: string;
    status: AccountStatus;
    owner: string | null;
    members: number;
    keys: number;
    created_at: string;
  }>(sql`
    select a.id, a.name, a.plan_id, a.status, a.created_at::text,
      (select u.email from memberships m join users u on u.id = m.user_id where m.account_id = a.id and m.role = 'owner' order by m.created_at limit 1) as owner,
      (select count(*)::int from memberships m where m.account_id = a.id) as members,
      (select count(*)::int from api_keys k where k.account_id = a.id) as keys
    from accounts a order by a.created_at, a.id`);
  return [...rows].map((r) => ({
    accountId: r.id,
    name: r.name,
    plan: r.plan_id as PlanId,
    status: r.status,
    owner: r.owner,
    members: r.members,
    keys: r.keys,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}
