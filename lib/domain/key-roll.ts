/**
 * Rolling a key: a new key of the same kind replaces it, and the old one keeps working for the chosen overlap, then
 * expires by itself.
 */
import "server-only";
import { announceKeyStanding } from "../keys/standing";
import { assertActorMay } from "./permissions";
import { keyPermission } from "../shared/roles";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { apiKeys } from "../../db/schema";
import { recordAudit, type Actor } from "./audit";
import { DomainError } from "./errors";
import { parseInput } from "./input";
import { rollKeyBody } from "../contract/portal-inputs";
import { ROLL_OVERLAPS } from "../shared/input-choices";
import { assertMayHoldLiveKey, insertKey, isExpired, lockKey, type CreatedKey } from "./keys";

export interface RolledKey {
  /** The replacement, shown once. */
  key: CreatedKey;
  /** The old key and when it stops working (at once for "now"). */
  old: { id: string; expiresAt: string };
}

export async function rollKey(
  db: Db,
  input: { accountId: string; userId: string; keyId: string; overlap: string },
  actor: Actor,
  now = new Date(),
): Promise<RolledKey> {
  const { overlap } = parseInput(rollKeyBody, { overlap: input.overlap });
  const rolled = db.transaction(async (tx) => {
    const [old] = await lockKey(tx, input.keyId, input.accountId);
    if (!old) throw new DomainError("not_found", "No such key.");
    assertActorMay(actor, keyPermission(old.env));
    if (old.status !== "active" || isExpired(old, now))
      throw new DomainError(
        "conflict",
        `Only an active key can be rolled; this one is ${old.status === "active" ? "expired" : old.status}.`,
      );
    if (old.expiresAt)
      throw new DomainError(
        "conflict",
        `This key was already rolled; it stops working at ${old.expiresAt.toISOString()}.`,
      );
    if (old.env === "live") await assertMayHoldLiveKey(tx, input.accountId, input.userId, old.style);
    const created = await insertKey(
      tx,
      { accountId: input.accountId, env: old.env, style: old.style, name: old.name },
      actor,
    );
    const expiresAt = new Date(now.getTime() + ROLL_OVERLAPS[overlap] * 1000);
    await tx.update(apiKeys).set({ expiresAt }).where(eq(apiKeys.id, old.id));
    await recordAudit(tx, {
      actor,
      accountId: input.accountId,
      action: "key.roll",
      target: `key:${old.id}`,
      before: { expiresAt: null },
      after: { expiresAt: expiresAt.toISOString(), overlap, replacedBy: created.id },
    });
    return { key: created, old: { id: old.id, expiresAt: expiresAt.toISOString() } };
  });
  return announceKeyStanding(rolled, { keyId: input.keyId });
}
