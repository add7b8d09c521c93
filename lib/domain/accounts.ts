/** Accounts and their owners: the same functions serve the CLI, the portal and the admin console. */
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { accounts, auditLog, users } from "../../db/schema";
import { DomainError } from "./errors";
import { PLAN_IDS, type PlanId } from "./plans-catalogue";

export interface AccountView {
  accountId: string;
  email: string;
  plan: PlanId;
  status: "active" | "inactive";
  admin: boolean;
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,}$/;

export function normaliseEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (!EMAIL.test(e)) throw new DomainError("invalid", `'${email}' is not an e-mail address`);
  return e;
}

export function assertPlan(plan: string): PlanId {
  if (!(PLAN_IDS as readonly string[]).includes(plan)) throw new DomainError("invalid", `plan must be one of ${PLAN_IDS.join(", ")}`);
  return plan as PlanId;
}

export async function createAccount(db: Db, input: { email: string; plan?: string; admin?: boolean; name?: string }, actor: string): Promise<AccountView> {
  const email = normaliseEmail(input.email);
  const plan = assertPlan(input.plan ?? "sandbox");
  return db.transaction(async (tx) => {
    const existing = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
    if (existing.length) throw new DomainError("conflict", `an account for ${email} already exists`);
    const [account] = await tx.insert(accounts).values({ name: input.name ?? email, planId: plan }).returning();
    await tx.insert(users).values({ email, accountId: account.id, role: "owner", isAdmin: input.admin ?? false, name: input.name ?? null });
    await tx.insert(auditLog).values({ actor, action: "account.create", subject: `account:${account.id}`, details: { email, plan, admin: input.admin ?? false } });
    return { accountId: account.id, email, plan, status: account.status, admin: input.admin ?? false };
  });
}

export async function findAccountByEmail(db: Db, email: string): Promise<AccountView | null> {
  const rows = await db
    .select({ accountId: accounts.id, email: users.email, plan: accounts.planId, status: accounts.status, admin: users.isAdmin })
    .from(users)
    .innerJoin(accounts, eq(accounts.id, users.accountId))
    .where(eq(users.email, normaliseEmail(email)));
  return rows[0] ? { ...rows[0], plan: rows[0].plan as PlanId } : null;
}

export async function requireAccountByEmail(db: Db, email: string): Promise<AccountView> {
  const found = await findAccountByEmail(db, email);
  if (!found) throw new DomainError("not_found", `no account for ${normaliseEmail(email)}`);
  return found;
}

export async function setAccountPlan(db: Db, email: string, plan: string, actor: string): Promise<AccountView> {
  const planId = assertPlan(plan);
  const account = await requireAccountByEmail(db, email);
  await db.transaction(async (tx) => {
    await tx.update(accounts).set({ planId }).where(eq(accounts.id, account.accountId));
    await tx.insert(auditLog).values({ actor, action: "account.set_plan", subject: `account:${account.accountId}`, details: { from: account.plan, to: planId } });
  });
  return { ...account, plan: planId };
}

export async function setAccountStatus(db: Db, email: string, status: "active" | "inactive", actor: string): Promise<AccountView> {
  const account = await requireAccountByEmail(db, email);
  await db.transaction(async (tx) => {
    await tx.update(accounts).set({ status }).where(eq(accounts.id, account.accountId));
    await tx.insert(auditLog).values({ actor, action: `account.${status === "active" ? "activate" : "deactivate"}`, subject: `account:${account.accountId}`, details: {} });
  });
  return { ...account, status };
}
