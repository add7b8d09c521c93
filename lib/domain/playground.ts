/**
 * The playground's test key: one per account, created when the owner clicks “Create a test key” (never behind their
 * back), kept sealed (AES-256-GCM under AUTH_SECRET, lib/crypto/secret-box, bound to the account id) so the portal can
 * call the gateway with it without showing or logging it again.
 */
import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { open, readAuthSecret, seal } from "../crypto/secret-box";
import type { Actor } from "./audit";
import { DomainError } from "./errors";
import { changeKeyStatus, createKey } from "./keys";
import { keyCreateCounters, takeHourly } from "./portal-limits";

const PURPOSE = "playground-key";

export interface PlaygroundKeyInfo {
  keyId: string;
  prefix: string;
}

type Row = { key_id: string; prefix: string; sealed_key: string; usable: boolean };

async function current(db: Db, accountId: string): Promise<Row | null> {
  const rows = await db.execute<Row>(sql`
    select p.key_id, k.prefix, p.sealed_key, (k.status = 'active' and (k.expires_at is null or k.expires_at > now())) as usable
    from playground_keys p join api_keys k on k.id = p.key_id where p.account_id = ${accountId}::uuid`);
  return rows[0] ?? null;
}

/** The account's usable playground key, without the key itself; null when there is none yet (or it was revoked). */
export async function playgroundKeyInfo(db: Db, accountId: string): Promise<PlaygroundKeyInfo | null> {
  const row = await current(db, accountId);
  return row?.usable ? { keyId: row.key_id, prefix: row.prefix } : null;
}

/** The plaintext playground key, for a server-side call only; a refusal when the account has none (it is never made here). */
export async function playgroundKey(db: Db, accountId: string): Promise<PlaygroundKeyInfo & { key: string }> {
  const row = await current(db, accountId);
  if (!row?.usable)
    throw new DomainError(
      "invalid",
      "This account has no playground test key: create one with “Create a test key”, or paste one of your keys.",
      { field: "key" },
    );
  return { keyId: row.key_id, prefix: row.prefix, key: open(row.sealed_key, readAuthSecret(), PURPOSE, accountId) };
}

/**
 * Creates the account's playground key on the owner's click: a Sandbox test key named "Playground", listed with the
 * account's keys, counted like any key created on the Keys page, returned in full this once. An account that already
 * has a usable one gets a conflict; a concurrent creator's extra key is revoked.
 */
export async function createPlaygroundKey(
  db: Db,
  accountId: string,
  actor: Actor,
): Promise<PlaygroundKeyInfo & { key: string; env: "test"; plan: string }> {
  const row = await current(db, accountId);
  if (row?.usable)
    throw new DomainError("conflict", `This account already has a playground test key (${row.prefix}…).`);
  await takeHourly(db, keyCreateCounters(accountId, actor.ip), "keys created");
  const created = await createKey(db, { accountId, env: "test", name: "Playground" }, actor);
  const sealed = seal(created.key, readAuthSecret(), PURPOSE, accountId);
  const stored = await db.execute(sql`
    insert into playground_keys (account_id, key_id, sealed_key) values (${accountId}::uuid, ${created.id}, ${sealed})
    on conflict (account_id) do update set key_id = excluded.key_id, sealed_key = excluded.sealed_key, created_at = now()
      where playground_keys.key_id = ${row?.key_id ?? null}
    returning key_id`);
  if (stored.length === 1)
    return { keyId: created.id, prefix: created.prefix, key: created.key, env: "test", plan: created.plan };
  await changeKeyStatus(db, created.id, "revoke", actor, accountId); // another request stored its key first
  throw new DomainError("conflict", "Another request created the playground key at the same time; reload the page.");
}
