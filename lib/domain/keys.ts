/** API key lifecycle. The full key leaves this module once, in createKey's answer; only its digest is stored. */
import { randomBytes } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { accounts, apiKeys, plans } from "../../db/schema";
import { generateKey, keyKindFor } from "../keys/format";
import { recordAudit, type Actor } from "./audit";
import { DomainError } from "./errors";

export interface KeyView {
  id: string;
  name: string;
  prefix: string;
  env: "test" | "live";
  style: "standard" | "sk";
  status: "active" | "inactive" | "revoked";
  createdAt: string;
}

export interface CreatedKey {
  id: string;
  key: string;
  prefix: string;
  env: "test" | "live";
  /** The plan whose limits the key gets: Sandbox for test keys, the account's plan for live keys. */
  plan: string;
}

export async function createKey(
  db: Db,
  input: { accountId: string; env: "test" | "live"; style?: "standard" | "sk"; name?: string },
  actor: Actor,
): Promise<CreatedKey> {
  const style = input.style ?? "standard";
  if (input.env === "test" && style === "sk") throw new DomainError("invalid", "svc_sk_live_ keys are live keys; a test key has the standard style", { field: "env" });
  const name = (input.name ?? `${input.env} key`).trim();
  if (name.length === 0 || name.length > 80) throw new DomainError("invalid", "a key name has 1–80 characters", { field: "name" });
  const generated = generateKey(keyKindFor(input.env, style));
  const id = `key_${randomBytes(12).toString("hex")}`;
  return db.transaction(async (tx) => {
    const [account] = await tx.select({ planId: accounts.planId }).from(accounts).where(eq(accounts.id, input.accountId));
    if (!account) throw new DomainError("not_found", "no such account");
    await tx.insert(apiKeys).values({ id, accountId: input.accountId, name, env: input.env, style, prefix: generated.prefix, digest: generated.digest });
    await recordAudit(tx, { actor, accountId: input.accountId, action: "key.create", target: `key:${id}`, after: { name, env: input.env, style, prefix: generated.prefix } });
    return { id, key: generated.key, prefix: generated.prefix, env: input.env, plan: input.env === "test" ? "sandbox" : account.planId };
  });
}

const TRANSITIONS = {
  deactivate: { from: ["active"], to: "inactive" },
  activate: { from: ["inactive"], to: "active" },
  revoke: { from: ["active", "inactive"], to: "revoked" },
} as const;

/** Changes a key's state; revocation is final. Scoped to an account when the caller is not an operator. */
export async function changeKeyStatus(db: Db, id: string, action: keyof typeof TRANSITIONS, actor: Actor, accountId?: string): Promise<KeyView> {
  const rule = TRANSITIONS[action];
  return db.transaction(async (tx) => {
    const where = accountId ? and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId)) : eq(apiKeys.id, id);
    const [key] = await tx.select().from(apiKeys).where(where).for("update");
    if (!key) throw new DomainError("not_found", `no key ${id}`);
    if (!(rule.from as readonly string[]).includes(key.status)) {
      throw new DomainError("conflict", `key ${id} is ${key.status}; cannot ${action}`);
    }
    const [updated] = await tx
      .update(apiKeys)
      .set({ status: rule.to, revokedAt: rule.to === "revoked" ? new Date() : key.revokedAt })
      .where(eq(apiKeys.id, id))
      .returning();
    await recordAudit(tx, { actor, accountId: key.accountId, action: `key.${action}`, target: `key:${id}`, before: { status: key.status }, after: { status: rule.to } });
    return toView(updated);
  });
}

export async function listKeys(db: Db, accountId: string): Promise<KeyView[]> {
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.accountId, accountId)).orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
  return rows.map(toView);
}

function toView(r: typeof apiKeys.$inferSelect): KeyView {
  return { id: r.id, name: r.name, prefix: r.prefix, env: r.env, style: r.style, status: r.status, createdAt: r.createdAt.toISOString() };
}

export async function planOf(db: Db, planId: string) {
  const [plan] = await db.select().from(plans).where(eq(plans.id, planId));
  return plan ?? null;
}
