/**
 * The one way a state change is recorded: every domain function that changes state calls recordAudit in its
 * transaction.
 */
import "server-only";
import type { Db } from "../db/client";
import { auditLog } from "../../db/schema";
import type { Role } from "../shared/roles";

export type ActorType = "user" | "admin" | "system" | "key";

/** Who did it, and from where (request id, address and user agent when the change came over HTTP). */
export interface Actor {
  type: ActorType;
  id: string;
  requestId?: string;
  ip?: string;
  userAgent?: string;
  /** A portal member's e-mail and role in the account acted on (the audit log keeps the e-mail). */
  email?: string;
  role?: Role;
}

export interface AuditEntry {
  actor: Actor;
  accountId?: string | null;
  action: string;
  target: string;
  before?: unknown;
  after?: unknown;
}

type Tx = Pick<Db, "insert">;

export async function recordAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  const { actor } = entry;
  await tx.insert(auditLog).values({
    actorType: actor.type,
    actorId: actor.id,
    accountId: entry.accountId ?? null,
    action: entry.action,
    target: entry.target,
    before: entry.before ?? null,
    after: entry.after ?? null,
    actorEmail: actor.email ?? null,
    requestId: actor.requestId ?? null,
    ip: actor.ip ?? null,
    userAgent: actor.userAgent?.slice(0, 512) ?? null,
  });
}

export const systemActor = (id: string): Actor => ({ type: "system", id });
export const adminActor = (id: string): Actor => ({ type: "admin", id });
