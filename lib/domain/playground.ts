/**
 * Which key a playground call runs as (issue 28): one of the account's own keys, chosen by id, or a key the user pasted.
 * An own key is never needed in full: the portal's call acts as it in process (lib/api/delegation.ts), so no secret is
 * kept or sent. The key must be the account's, work (not revoked, deactivated or expired) and be one the member's role
 * may use (a Developer: test keys; live keys need Admin or above, as for managing them).
 */
import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { apiKeys } from "../../db/schema";
import { mayUseKey, refusal, keyPermission, type Role } from "../shared/roles";
import { DomainError } from "./errors";
import { isExpired } from "./keys";

export type PlaygroundCredential = { keyId: string } | { key: string };

export interface PlaygroundMember {
  accountId: string;
  role: Role;
}

/** The credential of a playground call: the pasted key as it is, or an own key by id once checked. */
export async function playgroundCredential(
  db: Db,
  member: PlaygroundMember,
  choice: { keyId?: string; key?: string },
  now = new Date(),
): Promise<PlaygroundCredential> {
  if (choice.key !== undefined) return { key: choice.key };
  if (choice.keyId === undefined)
    throw new DomainError("invalid", "Choose one of your keys, or paste a key.", { field: "keyId" });
  const [key] = await db
    .select({ id: apiKeys.id, env: apiKeys.env, status: apiKeys.status, expiresAt: apiKeys.expiresAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, choice.keyId), eq(apiKeys.accountId, member.accountId)));
  if (!key) throw new DomainError("not_found", "No such key in this account.", { field: "keyId" });
  const state = key.status === "active" && isExpired(key, now) ? "expired" : key.status;
  if (state !== "active")
    throw new DomainError("invalid", `This key is ${STATE_WORDS[state]}: choose an active key.`, { field: "keyId" });
  if (!mayUseKey(member.role, key.env))
    throw new DomainError("forbidden", refusal(member.role, keyPermission(key.env)), { field: "keyId" });
  return { keyId: key.id };
}

const STATE_WORDS = { revoked: "revoked", inactive: "deactivated", expired: "expired (it was rolled)" } as const;
