/**
 * The admin console's accounts and keys: search by e-mail, account id or key prefix, an account's page, keys by prefix,
 * and the admin flag (never one's own, never the last admin).
 */
import type { Role } from "../shared/roles";
import type { AccountStatus } from "../shared/account-status";
import "server-only";
import { and, asc, eq, ilike, or, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { apiKeys, memberships, users } from "../../db/schema";
import { listAccounts, getAccount, type AccountListItem } from "./accounts";
import { recordAudit, type Actor } from "./audit";
import { DomainError } from "./errors";
import { parseInput } from "./input";
import { deactivationBody, searchQuery } from "../contract/admin-inputs";
import { changeKeyStatus, listKeys, type KeyListItem, type KeyView } from "./keys";
import { usageByDay, type DailyUsageRow } from "./usage";
import type { PlanId } from "./plans-catalogue";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isAccountId = (id: string) => UUID.test(id);

/** Accounts matching an e-mail (part), an account id, or a key prefix (part); at most 50, oldest first. */
export async function searchAccounts(db: Db, q: string): Promise<AccountListItem[]> {
  const term = parseInput(searchQuery, { q }).q;
  const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const ids = new Set<string>();
  if (isAccountId(term)) ids.add(term.toLowerCase());
  const byEmail = await db
    .select({ id: memberships.accountId })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .where(ilike(users.email, like))
    .limit(50);
  for (const r of byEmail) ids.add(r.id);
  const byKey = await db
    .select({ id: apiKeys.accountId })
    .from(apiKeys)
    .where(or(ilike(apiKeys.prefix, like), eq(apiKeys.id, term)))
    .limit(50);
  for (const r of byKey) ids.add(r.id);
  if (ids.size === 0) return [];
  const all = await listAccounts(db);
  return all.filter((a) => ids.has(a.accountId)).slice(0, 50);
}

export interface AccountMember {
  userId: string;
  email: string;
  name: string | null;
  role: Role;
  admin: boolean;
  verified: boolean;
}

export interface AccountDetail {
  accountId: string;
  name: string;
  plan: PlanId;
  status: AccountStatus;
  createdAt: string;
  members: AccountMember[];
  keys: KeyListItem[];
  usage: { days: number; totalCalls: number; rows: DailyUsageRow[] };
}

export async function accountDetail(db: Db, accountId: string, now = new Date()): Promise<AccountDetail> {
  if (!isAccountId(accountId)) throw new DomainError("not_found", "no such account");
  const account = await getAccount(db, accountId);
  const members = await db
    .select({
      userId: users.id,
      email: users.email,
      name: users.name,
      role: memberships.role,
      admin: users.isAdmin,
      verified: users.emailVerified,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.accountId, accountId))
    .orderBy(asc(memberships.createdAt));
  const [keys, rows] = await Promise.all([listKeys(db, accountId, now), usageByDay(db, accountId, 30, now)]);
  return {
    accountId,
    name: account.name,
    plan: account.planId as PlanId,
    status: account.status,
    createdAt: account.createdAt.toISOString(),
    members: members.map((m) => ({ ...m, verified: m.verified !== null })),
    keys,
    usage: { days: 30, totalCalls: rows.reduce((n, r) => n + r.calls, 0), rows },
  };
}

/** A key by its id or its full display prefix (operators read the prefix off a log line or a customer's message). */
export async function findKeyId(db: Db, ref: { id?: string; prefix?: string }): Promise<string> {
  if (ref.id) return ref.id;
  const prefix = (ref.prefix ?? "").trim();
  if (prefix.length < 8)
    throw new DomainError("invalid", "A key prefix has at least 8 characters.", { field: "prefix" });
  const rows = await db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.prefix, prefix)).limit(2);
  if (rows.length === 0) throw new DomainError("not_found", `no key with prefix ${prefix.slice(0, 40)}`);
  if (rows.length > 1) throw new DomainError("conflict", `more than one key has prefix ${prefix}; use --id`);
  return rows[0].id;
}

/** Deactivates or reactivates a key (by id or prefix); optionally only within one account (the account page). */
export async function setKeyActive(
  db: Db,
  ref: { id?: string; prefix?: string; accountId?: string },
  active: boolean,
  actor: Actor,
  reason?: string,
): Promise<KeyView> {
  const id = await findKeyId(db, ref);
  return changeKeyStatus(db, id, active ? "activate" : "deactivate", actor, ref.accountId, reason);
}

/**
 * The reason an operator gives for deactivating (3–500 characters, kept by the audit log); none is asked to reactivate.
 * A deactivation without one is refused before anything changes.
 */
export function deactivationReason(status: "active" | "inactive", reason: unknown): string | undefined {
  if (status === "active") return undefined;
  return parseInput(deactivationBody, { reason }).reason;
}

/** Grants or removes the admin flag. An admin cannot remove their own flag, and the last admin stays. */
export async function setAdminFlag(
  db: Db,
  userId: string,
  admin: boolean,
  actor: Actor,
): Promise<{ userId: string; email: string; admin: boolean }> {
  if (!UUID.test(userId)) throw new DomainError("not_found", "no such user", { field: "userId" });
  if (!admin && actor.id === userId)
    throw new DomainError("forbidden", "You cannot remove your own admin flag; ask another admin.");
  return db.transaction(async (tx) => {
    // Locks every admin row so two concurrent removals cannot both see "another admin remains".
    const admins = await tx.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).for("update");
    const [user] = await tx
      .select({ id: users.id, email: users.email, admin: users.isAdmin })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!user) throw new DomainError("not_found", "no such user", { field: "userId" });
    if (user.admin === admin) return { userId, email: user.email, admin };
    if (!admin && admins.filter((a) => a.id !== userId).length === 0)
      throw new DomainError("conflict", "This is the last admin; make another admin first.");
    await tx.update(users).set({ isAdmin: admin }).where(eq(users.id, userId));
    const [m] = await tx
      .select({ accountId: memberships.accountId })
      .from(memberships)
      .where(eq(memberships.userId, userId))
      .limit(1);
    await recordAudit(tx, {
      actor,
      accountId: m?.accountId ?? null,
      action: admin ? "user.grant_admin" : "user.revoke_admin",
      target: `user:${userId}`,
      before: { admin: user.admin },
      after: { admin },
    });
    return { userId, email: user.email, admin };
  });
}

/** The user id behind an e-mail (CLI). */
export async function requireUserByEmail(db: Db, email: string): Promise<string> {
  const e = (email ?? "").trim().toLowerCase();
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, e));
  if (!row) throw new DomainError("not_found", `no user ${e.slice(0, 80)}`, { field: "email" });
  return row.id;
}

/** Whether the user belongs to the account (the account page changes only its own members). */
export async function requireMember(db: Db, accountId: string, userId: string): Promise<void> {
  if (!isAccountId(accountId) || !UUID.test(userId)) throw new DomainError("not_found", "no such member");
  const [row] = await db
    .select({ id: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.accountId, accountId), eq(memberships.userId, userId)));
  if (!row) throw new DomainError("not_found", "no such member");
}

export async function countAdmins(db: Db): Promise<number> {
  const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(users).where(eq(users.isAdmin, true));
  return r.n;
}
