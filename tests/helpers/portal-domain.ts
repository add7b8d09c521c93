/** Portal owners for integration tests (verified or not, on a given plan), made through the same domain functions sign-up uses. */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import type { Db } from "../../lib/db/client";
import { createAccount } from "../../lib/domain/accounts";
import { systemActor, type Actor } from "../../lib/domain/audit";

export interface Owner {
  email: string;
  accountId: string;
  userId: string;
  actor: Actor;
}

export async function newOwner(db: Db, opts: { plan?: string; verified?: boolean } = {}): Promise<Owner> {
  const email = `owner_${randomBytes(5).toString("hex")}@example.com`;
  const a = await createAccount(
    db,
    { email, plan: opts.plan ?? "sandbox", emailVerified: opts.verified === false ? null : new Date() },
    systemActor("test"),
  );
  return {
    email,
    accountId: a.accountId,
    userId: a.userId,
    actor: { type: "user", id: a.userId, requestId: `req_${randomBytes(4).toString("hex")}` },
  };
}

/** Row counts of the tables a refused call must leave untouched. */
export async function snapshot(sql: import("postgres").Sql, tables: string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of tables) out[table] = (await sql.unsafe(`select count(*)::int as n from ${table}`))[0].n as number;
  return out;
}

/** Runs `fn`, expects a DomainError with `code` (and `field` when given), and that the listed tables did not change. */
export async function expectRefused(
  sql: import("postgres").Sql,
  fn: () => Promise<unknown>,
  expected: { code: string; field?: string; message?: RegExp },
  tables = ["api_keys", "audit_log", "access_requests"],
): Promise<void> {
  const before = await snapshot(sql, tables);
  await assert.rejects(fn, (err: { name?: string; code?: string; message?: string; detail?: { field?: string } }) => {
    assert.equal(err.name, "DomainError", String(err));
    assert.equal(err.code, expected.code, err.message);
    if (expected.field) assert.equal(err.detail?.field, expected.field);
    if (expected.message) assert.match(err.message ?? "", expected.message);
    return true;
  });
  assert.deepEqual(await snapshot(sql, tables), before, "a refused call wrote nothing");
}
