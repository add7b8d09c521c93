/**
 * Portal key functions (create, list, revoke, roll) against PostgreSQL and the real API server: bad input is refused
 * with a clear DomainError and writes nothing, another account's key is not found, a rolled key works for its overlap
 * and is then refused with 401 invalid_api_key, and last_used_at is written in batches at most once a minute.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { errorCodeOf } from "../helpers/api-server";
import { startRouteHarness, type Harness } from "../helpers/route-harness";
import { expectRefused, newOwner } from "../helpers/portal-domain";
import { changeKeyStatus, createOwnKey, listKeys } from "../../lib/domain/keys";
import { rollKey } from "../../lib/domain/key-roll";
import { setAccountPlan, setAccountStatus } from "../../lib/domain/accounts";
import { systemActor } from "../../lib/domain/audit";
import { LastUsedTracker } from "../../lib/api/last-used";

let t: TestDatabase;
let api: Harness;

/** One summary call with `key`, through `via` (the file's harness unless a test starts its own). */
async function call(key: string, via: Harness = api): Promise<{ status: number; code: string | null }> {
  const res = await fetch(`${via.baseUrl}/api/v1/ticker/AAPL/summary`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, code: errorCodeOf(await res.text()) };
}

describe("portal keys", () => {
  before(async () => {
    t = await createSeededTestDatabase("portalkeys", { seed: "options-research-demo-v1", now: new Date() });
    api = await startRouteHarness(t.url); // KEY_CACHE_TTL_MS=0: each call sees the database's state
    await t.sql`update plans set a_per_minute = 100000, a_per_month = 1000000`;
  });
  after(async () => {
    await api?.stop();
    await t?.drop();
  });

  it("creates a named test key, shown once; only its digest and display prefix are stored", async () => {
    const o = await newOwner(t.db);
    const k = await createOwnKey(
      t.db,
      { accountId: o.accountId, userId: o.userId, env: "test", name: "  CI runner " },
      o.actor,
    );
    assert.match(k.key, /^svc_test_[0-9A-Za-z]{30}$/);
    assert.equal(k.plan, "sandbox");
    const [row] = await t.sql`select name, env, style, status, prefix, digest from api_keys where id = ${k.id}`;
    assert.equal(row.name, "CI runner");
    assert.equal(row.prefix, k.prefix);
    assert.ok(!JSON.stringify(row).includes(k.key));
    assert.equal((await call(k.key)).status, 200);
    const [audit] =
      await t.sql`select actor_type, actor_id, action, request_id from audit_log where target = ${`key:${k.id}`}`;
    assert.deepEqual(
      { ...audit },
      { actor_type: "user", actor_id: o.userId, action: "key.create", request_id: o.actor.requestId },
    );
  });

  it("refuses bad input with the field at fault, and writes nothing", async () => {
    const o = await newOwner(t.db, { plan: "pro" });
    const base = { accountId: o.accountId, userId: o.userId };
    await expectRefused(t.sql, () => createOwnKey(t.db, { ...base, env: "prod", name: "x" }, o.actor), {
      code: "invalid",
      field: "env",
    });
    await expectRefused(t.sql, () => createOwnKey(t.db, { ...base, env: "test", name: "   " }, o.actor), {
      code: "invalid",
      field: "name",
    });
    await expectRefused(t.sql, () => createOwnKey(t.db, { ...base, env: "test", name: "n".repeat(81) }, o.actor), {
      code: "invalid",
      field: "name",
    });
    await expectRefused(t.sql, () => createOwnKey(t.db, { ...base, env: "test", name: 42 as never }, o.actor), {
      code: "invalid",
      field: "name",
    });
  });

  it("a live key needs a verified e-mail and the Pro or Enterprise plan (docs/api-contract.md §3)", async () => {
    const unverified = await newOwner(t.db, { plan: "pro", verified: false });
    await expectRefused(
      t.sql,
      () =>
        createOwnKey(
          t.db,
          { accountId: unverified.accountId, userId: unverified.userId, env: "live", name: "prod" },
          unverified.actor,
        ),
      { code: "forbidden", message: /verified e-mail/ },
    );
    for (const plan of ["sandbox", "starter"]) {
      const o = await newOwner(t.db, { plan });
      await expectRefused(
        t.sql,
        () => createOwnKey(t.db, { accountId: o.accountId, userId: o.userId, env: "live", name: "prod" }, o.actor),
        { code: "subscription_required", field: "env", message: /Pro or Enterprise.*Change the plan/ },
      );
    }
    const pro = await newOwner(t.db, { plan: "pro" });
    const k = await createOwnKey(
      t.db,
      { accountId: pro.accountId, userId: pro.userId, env: "live", name: "prod" },
      pro.actor,
    );
    assert.match(k.key, /^svc_live_/);
    assert.equal(k.plan, "pro");
  });

  it("lists the account's keys with plan, last use and state; another account's keys are not found", async () => {
    const a = await newOwner(t.db, { plan: "pro" });
    const b = await newOwner(t.db);
    const live = await createOwnKey(
      t.db,
      { accountId: a.accountId, userId: a.userId, env: "live", name: "live one" },
      a.actor,
    );
    const test = await createOwnKey(
      t.db,
      { accountId: a.accountId, userId: a.userId, env: "test", name: "test one" },
      a.actor,
    );
    const listed = await listKeys(t.db, a.accountId);
    assert.deepEqual(
      listed.map((k) => [k.id, k.plan, k.state, k.lastUsedAt, k.expiresAt]),
      [
        [test.id, "Sandbox", "active", null, null],
        [live.id, "Pro", "active", null, null],
      ],
    );
    assert.ok(listed.every((k) => !("digest" in k)));
    assert.deepEqual(await listKeys(t.db, b.accountId), []);
    await expectRefused(t.sql, () => changeKeyStatus(t.db, live.id, "revoke", b.actor, b.accountId), {
      code: "not_found",
    });
    await expectRefused(
      t.sql,
      () => rollKey(t.db, { accountId: b.accountId, userId: b.userId, keyId: live.id, overlap: "1h" }, b.actor),
      { code: "not_found" },
    );
    await expectRefused(t.sql, () => listKeys(t.db, "00000000-0000-0000-0000-000000000000"), { code: "not_found" });
    await expectRefused(
      t.sql,
      () =>
        createOwnKey(
          t.db,
          { accountId: "00000000-0000-0000-0000-000000000000", userId: b.userId, env: "test", name: "x" },
          b.actor,
        ),
      { code: "not_found" },
    );
  });

  it("revoke: the next call gets 401 invalid_api_key; a revoked key cannot be revoked or rolled", async () => {
    const o = await newOwner(t.db);
    const k = await createOwnKey(
      t.db,
      { accountId: o.accountId, userId: o.userId, env: "test", name: "to revoke" },
      o.actor,
    );
    assert.equal((await call(k.key)).status, 200);
    const v = await changeKeyStatus(t.db, k.id, "revoke", o.actor, o.accountId);
    assert.equal(v.status, "revoked");
    assert.deepEqual(await call(k.key), { status: 401, code: "invalid_api_key" });
    await expectRefused(t.sql, () => changeKeyStatus(t.db, k.id, "revoke", o.actor, o.accountId), { code: "conflict" });
    await expectRefused(
      t.sql,
      () => rollKey(t.db, { accountId: o.accountId, userId: o.userId, keyId: k.id, overlap: "now" }, o.actor),
      { code: "conflict" },
    );
  });

  it("roll with a 1-hour overlap: both keys work; once the overlap has passed the old one gets 401 invalid_api_key", async () => {
    const o = await newOwner(t.db);
    const old = await createOwnKey(
      t.db,
      { accountId: o.accountId, userId: o.userId, env: "test", name: "rolling" },
      o.actor,
    );
    await expectRefused(
      t.sql,
      () => rollKey(t.db, { accountId: o.accountId, userId: o.userId, keyId: old.id, overlap: "2h" }, o.actor),
      { code: "invalid", field: "overlap" },
    );
    const before = Date.now();
    const rolled = await rollKey(
      t.db,
      { accountId: o.accountId, userId: o.userId, keyId: old.id, overlap: "1h" },
      o.actor,
    );
    const expires = Date.parse(rolled.old.expiresAt);
    assert.ok(expires >= before + 3_600_000 && expires <= Date.now() + 3_600_000, rolled.old.expiresAt);
    assert.match(rolled.key.key, /^svc_test_/);
    assert.notEqual(rolled.key.id, old.id);
    assert.equal((await call(old.key)).status, 200);
    assert.equal((await call(rolled.key.key)).status, 200);
    await expectRefused(
      t.sql,
      () => rollKey(t.db, { accountId: o.accountId, userId: o.userId, keyId: old.id, overlap: "1h" }, o.actor),
      { code: "conflict", message: /already rolled/ },
    );
    // The overlap passing is the database's expires_at being reached: move it into the past instead of waiting an hour.
    await t.sql`update api_keys set expires_at = now() - interval '1 second' where id = ${old.id}`;
    assert.deepEqual(await call(old.key), { status: 401, code: "invalid_api_key" });
    assert.equal((await call(rolled.key.key)).status, 200);
    const states = Object.fromEntries((await listKeys(t.db, o.accountId)).map((k) => [k.id, k.state]));
    assert.deepEqual(states, { [old.id]: "expired", [rolled.key.id]: "active" });
    const [audit] =
      await t.sql`select action, after from audit_log where target = ${`key:${old.id}`} and action = 'key.roll'`;
    assert.deepEqual(audit.after, { expiresAt: rolled.old.expiresAt, overlap: "1h", replacedBy: rolled.key.id });
  });

  it("roll with overlap 'now': only the new key works", async () => {
    const o = await newOwner(t.db);
    const old = await createOwnKey(
      t.db,
      { accountId: o.accountId, userId: o.userId, env: "test", name: "at once" },
      o.actor,
    );
    const rolled = await rollKey(
      t.db,
      { accountId: o.accountId, userId: o.userId, keyId: old.id, overlap: "now" },
      o.actor,
    );
    assert.deepEqual(await call(old.key), { status: 401, code: "invalid_api_key" });
    assert.equal((await call(rolled.key.key)).status, 200);
  });

  it("rolling a live key needs the plan that admits it", async () => {
    const o = await newOwner(t.db, { plan: "pro" });
    const live = await createOwnKey(
      t.db,
      { accountId: o.accountId, userId: o.userId, env: "live", name: "live" },
      o.actor,
    );
    await setAccountPlan(t.db, o.accountId, "starter", systemActor("test"));
    await expectRefused(
      t.sql,
      () => rollKey(t.db, { accountId: o.accountId, userId: o.userId, keyId: live.id, overlap: "now" }, o.actor),
      { code: "subscription_required" },
    );
  });

  it("last_used_at: one batched write per key per minute, never moved backwards", async () => {
    const o = await newOwner(t.db);
    const [k1, k2] = await Promise.all(
      ["a", "b"].map((name) =>
        createOwnKey(t.db, { accountId: o.accountId, userId: o.userId, env: "test", name }, o.actor),
      ),
    );
    const tracker = new LastUsedTracker(t, 3_600_000); // flushed by hand below
    const t0 = Date.parse("2026-11-20T10:00:00Z");
    const lastUsed = async () =>
      Object.fromEntries(
        (
          await t.sql`select id, (extract(epoch from last_used_at) * 1000)::bigint::int8 as ms from api_keys where id in (${k1.id}, ${k2.id})`
        ).map((r) => [r.id, r.ms === null ? null : new Date(Number(r.ms)).toISOString()]),
      );
    tracker.touch(k1.id, t0);
    tracker.touch(k1.id, t0 + 30_000); // within the minute: not queued
    tracker.touch(k2.id, t0 + 1_000);
    assert.deepEqual(await lastUsed(), { [k1.id]: null, [k2.id]: null }, "nothing is written on the call itself");
    await tracker.flush();
    assert.deepEqual(await lastUsed(), {
      [k1.id]: new Date(t0).toISOString(),
      [k2.id]: new Date(t0 + 1_000).toISOString(),
    });
    tracker.touch(k1.id, t0 + 61_000);
    await tracker.flush();
    assert.equal((await lastUsed())[k1.id], new Date(t0 + 61_000).toISOString());
  });

  it("the API server records last_used_at for a key it served (after its periodic flush)", async () => {
    const o = await newOwner(t.db);
    const k = await createOwnKey(
      t.db,
      { accountId: o.accountId, userId: o.userId, env: "test", name: "used" },
      o.actor,
    );
    const started = Date.now();
    assert.equal((await call(k.key)).status, 200);
    let seen: number | null = null;
    for (let i = 0; i < 100 && seen === null; i++) {
      const ms = (
        await t.sql`select (extract(epoch from last_used_at) * 1000)::bigint as ms from api_keys where id = ${k.id}`
      )[0].ms;
      seen = ms === null ? null : Number(ms);
      if (seen === null) await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(seen !== null, "last_used_at written within the flush period");
    assert.ok(seen >= started - 1000 && seen <= Date.now(), String(seen));
  });

  describe("a change committed through this process reaches its key cache at once", () => {
    let cached: Harness;
    before(async () => {
      // The longest lifetime the product allows: without the notice, each change below would wait 5 s for it.
      cached = await startRouteHarness(t.url, { env: { KEY_CACHE_TTL_MS: "5000" } });
    });
    after(async () => {
      await cached?.stop();
    });

    const callCached = (key: string) => call(key, cached);

    it("a change made elsewhere (another process, here plain SQL) waits for the cache's lifetime", async () => {
      const o = await newOwner(t.db);
      const k = await createOwnKey(t.db, { accountId: o.accountId, userId: o.userId, env: "test", name: "k" }, o.actor);
      assert.equal((await callCached(k.key)).status, 200);
      await t.sql`update api_keys set status = 'revoked' where id = ${k.id}`;
      assert.equal(
        (await callCached(k.key)).status,
        200,
        "still the cached record: the notice is what makes it prompt",
      );
    });

    it("revoke, roll with 'now', deactivate and reactivate the account: the next call sees each", async () => {
      const o = await newOwner(t.db);
      const make = (name: string) =>
        createOwnKey(t.db, { accountId: o.accountId, userId: o.userId, env: "test", name }, o.actor);
      const revoked = await make("revoked");
      assert.equal((await callCached(revoked.key)).status, 200);
      await changeKeyStatus(t.db, revoked.id, "revoke", o.actor, o.accountId);
      assert.deepEqual(await callCached(revoked.key), { status: 401, code: "invalid_api_key" });

      const rolled = await make("rolled");
      assert.equal((await callCached(rolled.key)).status, 200);
      const next = await rollKey(
        t.db,
        { accountId: o.accountId, userId: o.userId, keyId: rolled.id, overlap: "now" },
        o.actor,
      );
      assert.deepEqual(await callCached(rolled.key), { status: 401, code: "invalid_api_key" });
      assert.equal((await callCached(next.key.key)).status, 200);

      await setAccountStatus(t.db, o.accountId, "inactive", systemActor("test"));
      assert.deepEqual(await callCached(next.key.key), { status: 403, code: "inactive_key" });
      await setAccountStatus(t.db, o.accountId, "active", systemActor("test"));
      assert.equal((await callCached(next.key.key)).status, 200);
    });
  });
});
