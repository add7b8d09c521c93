/** API key lifecycle. The full key leaves this module once, in the creator's answer; only its digest is stored. */
import "server-only";
import { announceKeyStanding } from "../keys/standing";
import { assertActorMay } from "./permissions";
import { keyPermission } from "../shared/roles";
import { randomBytes } from "node:crypto";
import { and, count, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { accounts, apiKeys, plans, users } from "../../db/schema";
import { generateKey, keyKindFor } from "../keys/format";
import { recordAudit, type Actor } from "./audit";
import { DomainError } from "./errors";
import { parseInput, type Unchecked } from "./input";
import { liveKeyRefusal } from "../contract/refusals";
import { createKeyBody, type CreateKeyInput, keyNameBody } from "../contract/portal-inputs";
import { keyCreateCounters, takeHourly } from "./portal-limits";
import { followKeyStatus } from "./webhook-lifecycle";

export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type KeyRow = typeof apiKeys.$inferSelect;

export interface KeyView {
  id: string;
  name: string;
  prefix: string;
  env: "test" | "live";
  style: "standard" | "sk";
  status: "active" | "inactive" | "revoked";
  createdAt: string;
}

/**
 * A row of the portal's key table: the stored status plus what the caller sees (an expired key is refused like a
 * revoked one).
 */
export interface KeyListItem extends KeyView {
  state: "active" | "inactive" | "revoked" | "expired";
  /** The plan whose limits the key gets (A name): Sandbox for test keys, the account's plan for live keys. */
  plan: string;
  lastUsedAt: string | null;
  /** When a rolled key stops working; null for a key that was never rolled. */
  expiresAt: string | null;
}

export interface CreatedKey {
  id: string;
  key: string;
  prefix: string;
  env: "test" | "live";
  /** The plan whose limits the key gets: Sandbox for test keys, the account's plan for live keys. */
  plan: string;
}

/** Inserts a key and its audit entry in the caller's transaction; the account must exist. */
export async function insertKey(
  tx: Tx,
  input: { accountId: string; env: "test" | "live"; style: "standard" | "sk"; name: string },
  actor: Actor,
): Promise<CreatedKey> {
  // The account row is locked, so concurrent creations count each other's keys against the cap.
  const [account] = await tx
    .select({ planId: accounts.planId, status: accounts.status, cap: plans.maxActiveKeys, planName: plans.nameA })
    .from(accounts)
    .innerJoin(plans, eq(plans.id, accounts.planId))
    .where(eq(accounts.id, input.accountId))
    .for("update", { of: accounts });
  if (!account) throw new DomainError("not_found", "no such account");
  if (account.status !== "active")
    throw new DomainError(
      "forbidden",
      account.status === "deleted"
        ? "This account was deleted: it cannot create keys."
        : "This account is deactivated: it cannot create keys. Contact support.",
    );
  const [{ active }] = await tx
    .select({ active: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, input.accountId), eq(apiKeys.status, "active"), isNull(apiKeys.expiresAt)));
  if (active >= account.cap)
    throw new DomainError(
      "conflict",
      `The ${account.planName} plan allows ${account.cap} active keys and this account has ${active}: revoke one first, or change the plan.`,
    );
  const generated = generateKey(keyKindFor(input.env, input.style));
  const id = `key_${randomBytes(12).toString("hex")}`;
  const { name, env, style } = input;
  await tx
    .insert(apiKeys)
    .values({ id, accountId: input.accountId, name, env, style, prefix: generated.prefix, digest: generated.digest });
  await recordAudit(tx, {
    actor,
    accountId: input.accountId,
    action: "key.create",
    target: `key:${id}`,
    after: { name, env, style, prefix: generated.prefix },
  });
  return { id, key: generated.key, prefix: generated.prefix, env, plan: env === "test" ? "sandbox" : account.planId };
}

/**
 * Operator creation (CLI, demo, tests): no plan or verification check; the gateway refuses a live key its plan does not
 * admit.
 */
export async function createKey(
  db: Db,
  input: { accountId: string; env: "test" | "live"; style?: "standard" | "sk"; name?: string },
  actor: Actor,
): Promise<CreatedKey> {
  const style = input.style ?? "standard";
  if (input.env === "test" && style === "sk")
    throw new DomainError("invalid", "svc_sk_live_ keys are live keys; a test key has the standard style", {
      field: "env",
    });
  const name = parseInput(keyNameBody, { name: input.name ?? `${input.env} key` }).name;
  return db.transaction((tx) => insertKey(tx, { accountId: input.accountId, env: input.env, style, name }, actor));
}

/**
 * A person may hold live keys only with a verified e-mail, on a plan that admits the key's style (docs/api-contract.md
 * §3).
 */
export async function assertMayHoldLiveKey(
  tx: Tx,
  accountId: string,
  userId: string,
  style: "standard" | "sk",
): Promise<void> {
  const [user] = await tx.select({ verified: users.emailVerified }).from(users).where(eq(users.id, userId));
  if (!user) throw new DomainError("not_found", "no such user");
  if (!user.verified)
    throw new DomainError("forbidden", "Live keys need a verified e-mail address: verify yours first.");
  const [row] = await tx
    .select({ name: plans.nameA, styles: plans.liveKeyStyles })
    .from(accounts)
    .innerJoin(plans, eq(plans.id, accounts.planId))
    .where(eq(accounts.id, accountId));
  if (!row) throw new DomainError("not_found", "no such account");
  if (!row.styles.includes(style === "sk" ? "sk" : "live")) {
    throw new DomainError("subscription_required", `${liveKeyRefusal(style, row.name)} Change the plan first.`, {
      field: "env",
    });
  }
}

/** Portal creation: a named test or live key; a live key needs a verified e-mail and a plan that admits it. */
export async function createOwnKey(
  db: Db,
  input: { accountId: string; userId: string } & Unchecked<CreateKeyInput>,
  actor: Actor,
): Promise<CreatedKey> {
  const { env, name } = parseInput(createKeyBody, { env: input.env, name: input.name });
  assertActorMay(actor, keyPermission(env));
  await takeHourly(db, keyCreateCounters(input.accountId, actor.ip), "keys created");
  return db.transaction(async (tx) => {
    if (env === "live") await assertMayHoldLiveKey(tx, input.accountId, input.userId, "standard");
    return insertKey(tx, { accountId: input.accountId, env, style: "standard", name }, actor);
  });
}

const TRANSITIONS = {
  deactivate: { from: ["active"], to: "inactive" },
  activate: { from: ["inactive"], to: "active" },
  revoke: { from: ["active", "inactive"], to: "revoked" },
} as const;

/** Changes a key's state; revocation is final. Scoped to an account when the caller is not an operator. */
export async function changeKeyStatus(
  db: Db,
  id: string,
  action: keyof typeof TRANSITIONS,
  actor: Actor,
  accountId?: string,
  reason?: string,
): Promise<KeyView> {
  const rule = TRANSITIONS[action];
  const changed = db.transaction(async (tx) => {
    const [key] = await lockKey(tx, id, accountId);
    if (!key) throw new DomainError("not_found", `no key ${id}`);
    assertActorMay(actor, keyPermission(key.env));
    if (!(rule.from as readonly string[]).includes(key.status)) {
      throw new DomainError("conflict", `key ${id} is ${key.status}; cannot ${action}`);
    }
    if (action === "activate") {
      const [account] = await tx
        .select({ status: accounts.status })
        .from(accounts)
        .where(eq(accounts.id, key.accountId));
      if (account?.status !== "active")
        throw new DomainError("forbidden", "This account is deactivated: its keys stay off until it is reactivated.");
    }
    const [updated] = await tx
      .update(apiKeys)
      .set({ status: rule.to, revokedAt: rule.to === "revoked" ? new Date() : key.revokedAt, disabledBy: null })
      .where(eq(apiKeys.id, id))
      .returning();
    // The key's webhooks follow it: revoked ends them, inactive holds them until the key is active again.
    await followKeyStatus(tx, key, rule.to, actor);
    await recordAudit(tx, {
      actor,
      accountId: key.accountId,
      action: `key.${action}`,
      target: `key:${id}`,
      before: { status: key.status },
      after: { status: rule.to, ...(reason ? { reason } : {}) },
    });
    return toView(updated);
  });
  return announceKeyStanding(changed, { keyId: id });
}

export function lockKey(tx: Tx, id: string, accountId?: string) {
  const where = accountId ? and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId)) : eq(apiKeys.id, id);
  return tx.select().from(apiKeys).where(where).for("update");
}

/** The account's keys, newest first, as the portal's table shows them. */
export async function listKeys(db: Db, accountId: string, now = new Date()): Promise<KeyListItem[]> {
  const [account] = await db
    .select({ planName: plans.nameA })
    .from(accounts)
    .innerJoin(plans, eq(plans.id, accounts.planId))
    .where(eq(accounts.id, accountId));
  if (!account) throw new DomainError("not_found", "no such account");
  const rows = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.accountId, accountId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map((r) => ({
    ...toView(r),
    state: r.status === "active" && isExpired(r, now) ? "expired" : r.status,
    plan: r.env === "test" ? "Sandbox" : account.planName,
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
    expiresAt: r.expiresAt?.toISOString() ?? null,
  }));
}

export function isExpired(r: Pick<KeyRow, "expiresAt">, now: Date): boolean {
  return r.expiresAt !== null && r.expiresAt.getTime() <= now.getTime();
}

export function toView(r: KeyRow): KeyView {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    env: r.env,
    style: r.style,
    status: r.status,
    createdAt: r.createdAt.toISOString(),
  };
}

export async function planOf(db: Db, planId: string) {
  const [plan] = await db.select().from(plans).where(eq(plans.id, planId));
  return plan ?? null;
}
