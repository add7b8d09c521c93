/**
 * The Owner deletes the account (issue 32), against PostgreSQL and the in-process API: only the Owner, only with the
 * account's name or their e-mail typed; afterwards every key answers 401 invalid_api_key, webhooks are ended, links to
 * join stop working, every member is signed out and leaves, the rows stay (status `deleted`) and the audit log says so.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { endpointCatalogue } from "../../lib/api/routes";
import { deleteAccount, deletionPreview } from "../../lib/domain/account-deletion";
import { createAccount, setAccountPlan, setAccountStatus } from "../../lib/domain/accounts";
import { type Actor, adminActor, systemActor } from "../../lib/domain/audit";
import { describeInvitation, inviteMember } from "../../lib/domain/invitations";
import { createKey } from "../../lib/domain/keys";
import { seedReferenceData } from "../../lib/domain/seed";
import { checkSession, startSession } from "../../lib/domain/sessions";
import { loadPortalSession } from "../../lib/domain/users";
import { registerWebhook } from "../../lib/domain/webhooks";
import { errorCodeOf } from "../helpers/api-server";
import { expectRefused, newOwner, type Owner } from "../helpers/portal-domain";
import { type Harness, startRouteHarness } from "../helpers/route-harness";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";

let t: TestDatabase;
let api: Harness;
const owner = (o: Owner): Actor => ({ ...o.actor, email: o.email, role: "owner" });

/** A call that needs a valid key and no market data: the account's webhooks (Pro has them; test keys mirror it). */
async function call(key: string): Promise<{ status: number; code: string | null }> {
  const res = await fetch(`${api.baseUrl}/api/v1/alerts`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, code: errorCodeOf(await res.text()) };
}

/** A person with their own account who also joins `o`'s as `role`. */
async function memberOf(o: Owner, role: "admin" | "developer") {
  const own = await newOwner(t.db);
  await t.sql`insert into memberships (user_id, account_id, role) values (${own.userId}, ${o.accountId}, ${role})`;
  await t.sql`update users set current_account_id = ${o.accountId} where id = ${own.userId}`;
  return { ...own, actor: { ...own.actor, email: own.email, role } as Actor };
}

describe("account deletion", () => {
  before(async () => {
    t = await createTestDatabase("acctdelete");
    await seedReferenceData(t.db, endpointCatalogue());
    api = await startRouteHarness(t.url); // KEY_CACHE_TTL_MS=0: each call sees the database's state
  });
  after(async () => {
    await api?.stop();
    await t?.drop();
  });

  it("only the Owner deletes, and only with the account's name or their e-mail typed; a refusal changes nothing", async () => {
    const o = await newOwner(t.db, { plan: "pro" });
    const admin = await memberOf(o, "admin");
    const tables = ["api_keys", "audit_log", "memberships", "portal_sessions"];
    await expectRefused(
      t.sql,
      () => deleteAccount(t.db, { accountId: o.accountId, confirm: o.email }, admin.actor),
      { code: "forbidden", message: /Admin.*needs Owner/ },
      tables,
    );
    for (const confirm of ["", "  ", "someone@example.com", admin.email, undefined])
      await expectRefused(
        t.sql,
        () => deleteAccount(t.db, { accountId: o.accountId, confirm }, owner(o)),
        { code: "invalid", field: "confirm" },
        tables,
      );
    const [a] = await t.sql`select status from accounts where id = ${o.accountId}`;
    assert.equal(a.status, "active");
  });

  it("revokes every key (401 invalid_api_key), ends webhooks and invitations, signs every member out, keeps the rows", async () => {
    const o = await newOwner(t.db, { plan: "pro" });
    const dev = await memberOf(o, "developer");
    const test = await createKey(t.db, { accountId: o.accountId, env: "test" }, systemActor("test"));
    const live = await createKey(t.db, { accountId: o.accountId, env: "live" }, systemActor("test"));
    assert.equal((await call(test.key)).status, 200);
    assert.equal((await call(live.key)).status, 200);
    const hook = await registerWebhook(
      t.db,
      { accountId: o.accountId, keyId: test.id, env: "test" },
      { url: "https://hooks.example.com/x", events: ["no_trade.decision_changed"], symbols: ["AAPL"] },
      owner(o),
    );
    const { token } = await inviteMember(
      t.db,
      { accountId: o.accountId, email: "later@example.com", role: "viewer" },
      owner(o),
    );
    const sessions = [await startSession(t.db, o.userId), await startSession(t.db, dev.userId)];
    assert.deepEqual(await deletionPreview(t.db, o.accountId), { name: o.email, keys: 2, webhooks: 1, members: 2 });
    const auditBefore = (await t.sql`select count(*)::int as n from audit_log where account_id = ${o.accountId}`)[0].n;

    const done = await deleteAccount(t.db, { accountId: o.accountId, confirm: ` ${o.email.toUpperCase()} ` }, owner(o));
    assert.deepEqual(done, {
      accountId: o.accountId,
      name: o.email,
      keysRevoked: 2,
      webhooksDisabled: 1,
      membersRemoved: 2,
      sessionsEnded: 2,
    });

    assert.deepEqual(await call(test.key), { status: 401, code: "invalid_api_key" });
    assert.deepEqual(await call(live.key), { status: 401, code: "invalid_api_key" });
    const keys = await t.sql`select status, disabled_by from api_keys where account_id = ${o.accountId}`;
    assert.deepEqual(
      keys.map((k) => [k.status, k.disabled_by]),
      [
        ["revoked", "account_deleted"],
        ["revoked", "account_deleted"],
      ],
    );
    const [w] = await t.sql`select status, disabled_by from webhooks where id = ${hook.webhookId}`;
    assert.deepEqual({ ...w }, { status: "disabled", disabled_by: "key_revoked" });
    assert.equal(await describeInvitation(t.db, token), null, "the invitation link no longer works");
    for (const [i, user] of [o.userId, dev.userId].entries())
      assert.equal(await checkSession(t.db, sessions[i], user), false, "every member's session ended");
    assert.equal(await loadPortalSession(t.db, o.userId), null, "the Owner belongs to no account any more");
    const devSession = await loadPortalSession(t.db, dev.userId);
    assert.equal(devSession?.user.accountId, dev.accountId, "a member of another account keeps that one");
    assert.deepEqual(
      devSession?.user.accounts.map((a) => a.accountId),
      [dev.accountId],
    );

    const [a] = await t.sql`select status, name from accounts where id = ${o.accountId}`;
    assert.deepEqual({ ...a }, { status: "deleted", name: o.email }, "the account row stays, deleted");
    const [audit] =
      await t.sql`select actor_email, before, after from audit_log where action = 'account.delete' and account_id = ${o.accountId}`;
    assert.equal(audit.actor_email, o.email);
    assert.deepEqual(audit.before.members, [
      { email: o.email, role: "owner" },
      { email: dev.email, role: "developer" },
    ]);
    assert.deepEqual(audit.after.keys, [live.id, test.id].sort());
    assert.deepEqual(audit.after.webhooks, [hook.webhookId]);
    const auditAfter = (await t.sql`select count(*)::int as n from audit_log where account_id = ${o.accountId}`)[0].n;
    assert.ok(auditAfter > auditBefore, "the audit log is kept and grows");
  });

  it("a deleted account stays deleted: no second deletion, no reactivation, plan change or new key", async () => {
    const o = await newOwner(t.db);
    await deleteAccount(t.db, { accountId: o.accountId, confirm: o.email }, owner(o));
    await assert.rejects(deleteAccount(t.db, { accountId: o.accountId, confirm: o.email }, owner(o)), {
      code: "not_found",
    });
    await assert.rejects(setAccountStatus(t.db, o.accountId, "active", adminActor("op")), { code: "conflict" });
    await assert.rejects(setAccountPlan(t.db, o.accountId, "pro", adminActor("op")), { code: "conflict" });
    await assert.rejects(createKey(t.db, { accountId: o.accountId, env: "test" }, adminActor("op")), {
      code: "forbidden",
      message: /deleted/,
    });
    await assert.rejects(deletionPreview(t.db, o.accountId), { code: "not_found" });
  });

  it("a named account is confirmed by its name as well", async () => {
    const named = await createAccount(
      t.db,
      { email: `named_${Date.now()}@example.com`, name: "Acme Research" },
      systemActor("test"),
    );
    const actor: Actor = { type: "user", id: named.userId, email: named.email, role: "owner" };
    await assert.rejects(deleteAccount(t.db, { accountId: named.accountId, confirm: "acme research" }, actor), {
      code: "invalid",
    });
    const done = await deleteAccount(t.db, { accountId: named.accountId, confirm: "Acme Research" }, actor);
    assert.equal(done.name, "Acme Research");
  });
});
