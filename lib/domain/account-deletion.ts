/**
 * The Owner deletes the account (issue 32). What the account did stays (the audit log, usage and billing rows, its keys'
 * and webhooks' rows); what it could still do ends in one transaction: every key is revoked (the API answers 401
 * invalid_api_key on every server within 5 s), its webhooks end for good and their queued deliveries are cancelled,
 * invitations stop working, a pending access request is rejected and an unseen issued key's ciphertext is dropped, every
 * member leaves and every session of theirs ends. The account row stays with status `deleted`, which nothing reverses.
 */
import "server-only";
import { announceKeyStanding } from "../keys/standing";
import { and, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { accessRequests, accounts, apiKeys, invitations, memberships, users } from "../../db/schema";
import { recordAudit, type Actor } from "./audit";
import { DomainError } from "./errors";
import { assertActorMay } from "./permissions";
import { endUserSessions } from "./sessions";
import { followKeyStatus } from "./webhook-lifecycle";
import { ROLES } from "../shared/roles";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Set on the keys the deletion revoked (api_keys.disabled_by), so their history says why. */
export const DISABLED_BY_DELETION = "account_deleted";

export interface DeletedAccount {
  accountId: string;
  name: string;
  keysRevoked: number;
  webhooksDisabled: number;
  membersRemoved: number;
  sessionsEnded: number;
}

/**
 * The confirmation the Owner types: the account's name or their own e-mail (case aside), so a stray click or a
 * replayed request for another account deletes nothing.
 */
function assertConfirmed(confirm: unknown, name: string, actor: Actor): void {
  const typed = typeof confirm === "string" ? confirm.trim() : "";
  const ok = typed !== "" && (typed === name.trim() || typed.toLowerCase() === actor.email?.toLowerCase());
  if (!ok)
    throw new DomainError("invalid", `Type the account's name (${name}) or your e-mail address to delete it.`, {
      field: "confirm",
    });
}

export async function deleteAccount(
  db: Db,
  input: { accountId: string; confirm: unknown },
  actor: Actor,
  now = new Date(),
): Promise<DeletedAccount> {
  assertActorMay(actor, "delete_account");
  const deleted = db.transaction(async (tx) => {
    const [account] = await tx
      .select({ name: accounts.name, status: accounts.status, planId: accounts.planId })
      .from(accounts)
      .where(eq(accounts.id, input.accountId))
      .for("update");
    if (!account || account.status === "deleted") throw new DomainError("not_found", "No such account.");
    assertConfirmed(input.confirm, account.name, actor);
    const { keys, webhooks } = await revokeEveryKey(tx, input.accountId, actor, now);
    await closeOpenRequests(tx, input.accountId, actor, now);
    const members = await removeEveryMember(tx, input.accountId, now);
    await tx.update(accounts).set({ status: "deleted" }).where(eq(accounts.id, input.accountId));
    const sessionsEnded = members.reduce((n, m) => n + m.sessionsEnded, 0);
    await recordAudit(tx, {
      actor,
      accountId: input.accountId,
      action: "account.delete",
      target: `account:${input.accountId}`,
      before: {
        name: account.name,
        status: account.status,
        plan: account.planId,
        members: members.map((m) => ({ email: m.email, role: m.role })),
      },
      after: { status: "deleted", keys: keys.sort(), webhooks: webhooks.sort(), sessionsEnded },
    });
    return {
      accountId: input.accountId,
      name: account.name,
      keysRevoked: keys.length,
      webhooksDisabled: webhooks.length,
      membersRemoved: members.length,
      sessionsEnded,
    };
  });
  return announceKeyStanding(deleted, { accountId: input.accountId });
}

/** What deleting the account would end, for the confirmation to name: keys that still work, live webhooks, members. */
export async function deletionPreview(db: Db, accountId: string, now = new Date()) {
  const [row] = await db.execute<{ name: string; keys: number; webhooks: number; members: number }>(sql`
    select a.name,
      (select count(*)::int from api_keys k where k.account_id = a.id and k.status <> 'revoked'
         and (k.expires_at is null or k.expires_at > ${now.toISOString()}::timestamptz)) as keys,
      (select count(*)::int from webhooks w where w.account_id = a.id and w.status in ('active', 'paused')) as webhooks,
      (select count(*)::int from memberships m where m.account_id = a.id) as members
    from accounts a where a.id = ${accountId} and a.status <> 'deleted'`);
  if (!row) throw new DomainError("not_found", "No such account.");
  return { name: row.name, keys: row.keys, webhooks: row.webhooks, members: row.members };
}

/** Revokes every key not yet revoked; each key's webhooks follow it (disabled for good, queued deliveries cancelled). */
async function revokeEveryKey(tx: Tx, accountId: string, actor: Actor, now: Date) {
  const live = await tx
    .select({ id: apiKeys.id, accountId: apiKeys.accountId, prefix: apiKeys.prefix })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, accountId), ne(apiKeys.status, "revoked")))
    .for("update");
  const webhooks: string[] = [];
  if (live.length > 0)
    await tx
      .update(apiKeys)
      .set({ status: "revoked", revokedAt: now, disabledBy: DISABLED_BY_DELETION })
      .where(
        inArray(
          apiKeys.id,
          live.map((k) => k.id),
        ),
      );
  for (const key of live) webhooks.push(...(await followKeyStatus(tx, key, "revoked", actor, now)));
  return { keys: live.map((k) => k.id), webhooks };
}

/** Links to join stop working; a pending access request is rejected; an issued key nobody has seen is dropped. */
async function closeOpenRequests(tx: Tx, accountId: string, actor: Actor, now: Date) {
  await tx
    .update(invitations)
    .set({ usedAt: now })
    .where(and(eq(invitations.accountId, accountId), isNull(invitations.usedAt)));
  await tx
    .update(accessRequests)
    .set({
      status: "rejected",
      decisionReason: "The account was deleted.",
      decidedAt: now,
      decidedBy: actor.email ?? actor.id,
    })
    .where(and(eq(accessRequests.accountId, accountId), eq(accessRequests.status, "pending")));
  await tx
    .update(accessRequests)
    .set({ keyCiphertext: null })
    .where(and(eq(accessRequests.accountId, accountId), eq(accessRequests.status, "approved")));
}

/** Every member leaves the account and is signed out everywhere (their next request answers 401). */
async function removeEveryMember(tx: Tx, accountId: string, now: Date) {
  const members = await tx
    .delete(memberships)
    .where(eq(memberships.accountId, accountId))
    .returning({ userId: memberships.userId, role: memberships.role });
  const emails = new Map(
    members.length === 0
      ? []
      : (
          await tx
            .select({ id: users.id, email: users.email })
            .from(users)
            .where(
              inArray(
                users.id,
                members.map((m) => m.userId),
              ),
            )
        ).map((u) => [u.id, u.email]),
  );
  await tx.update(users).set({ currentAccountId: null }).where(eq(users.currentAccountId, accountId));
  const out: { email: string; role: string; sessionsEnded: number }[] = [];
  members.sort((a, b) => ROLES.indexOf(a.role) - ROLES.indexOf(b.role));
  for (const m of members)
    out.push({
      email: emails.get(m.userId) ?? m.userId,
      role: m.role,
      sessionsEnded: await endUserSessions(tx, m.userId, "account_deleted", { now }),
    });
  return out;
}
