/**
 * Each attack from the security review, reproduced against the domain and the database, and shown to fail now:
 * sign-in lock-out by anyone, sessions that outlive sign-out, keys without a cap, quota multiplied by keys, audit rows
 * wiped by the app's role, deactivation that leaves keys working, and webhook targets that slip past the policy.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import postgres from "postgres";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../lib/db/client";
import { EMBEDDED_APP_ROLE, startEmbeddedDatabase } from "../../lib/db/embedded";
import { migrationsFolder, prepareSchema } from "../../lib/db/migrate";
import { adminUrl, createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { accountWithKey } from "../helpers/accounts";
import { createAccount, normaliseEmail, setAccountStatus } from "../../lib/domain/accounts";
import { systemActor } from "../../lib/domain/audit";
import { DomainError } from "../../lib/domain/errors";
import { changeKeyStatus, createKey, createOwnKey } from "../../lib/domain/keys";
import {
  SIGNIN_FIRST_DELAY_SECONDS,
  SIGNIN_LIMITS,
  signinDelaySeconds,
  takeSigninAttempt,
} from "../../lib/domain/signin-throttle";
import {
  checkSession,
  endSession,
  endUserSessions,
  SESSION_ABSOLUTE_SECONDS,
  SESSION_IDLE_SECONDS,
  startSession,
} from "../../lib/domain/sessions";
import { resetPasswordByToken, startPasswordReset } from "../../lib/domain/user-credentials";
import { signUp, verifyCredentials } from "../../lib/domain/users";
import { runBatch } from "../../lib/api/admission";
import { takeQuota } from "../../lib/api/limits";
import { burstWindow, quotaWindow } from "../../lib/limits/windows";
import type { AdmissionCall } from "../../lib/api/limits";
import { alwaysRefusedRange, checkTargetHost, refusedRange } from "../../lib/webhooks/address-policy";
import { missingMailReason } from "../../lib/auth/settings";
import { seedReferenceData } from "../../lib/domain/seed";
import { endpointCatalogue } from "../../lib/api/routes";

let t: TestDatabase;
const email = () => `s_${randomBytes(5).toString("hex")}@example.com`;
const PASSWORD = "a long enough password";

async function userWithPassword() {
  const e = email();
  const view = await signUp(t.db, { email: e, password: PASSWORD, acceptTerms: true }, { type: "self" });
  return { ...view, email: e };
}

before(async () => {
  t = await createTestDatabase("security");
  await seedReferenceData(t.db, endpointCatalogue());
});
after(async () => {
  await t?.drop();
});

describe("sign-in throttling: growing delays, never a lock anyone can set", () => {
  it("the delay is per (e-mail, address): an attacker's failures never delay the owner's address; a right password clears it", async () => {
    const u = await userWithPassword();
    const t0 = new Date();
    const attacker = "203.0.113.9";
    for (let i = 0; i < SIGNIN_LIMITS.email; i++) await takeSigninAttempt(t.db, { email: u.email, ip: attacker }, t0);
    const refused = await takeSigninAttempt(t.db, { email: u.email, ip: attacker }, t0).then(
      () => null,
      (e) => e,
    );
    assert.ok(refused instanceof DomainError && refused.code === "rate_limited");
    assert.ok(refused.detail.retryAfterSeconds! <= SIGNIN_FIRST_DELAY_SECONDS);
    // The owner, from their own address, is not delayed by the attacker's failures.
    const own = await takeSigninAttempt(t.db, { email: u.email, ip: "192.0.2.77" }, t0);
    assert.ok(await verifyCredentials(t.db, u.email, PASSWORD));
    await own.release();
    // The attacker's delay passes, then doubles per further failure.
    const later = new Date(t0.getTime() + SIGNIN_FIRST_DELAY_SECONDS * 1000);
    await takeSigninAttempt(t.db, { email: u.email, ip: attacker }, later);
    await assert.rejects(takeSigninAttempt(t.db, { email: u.email, ip: attacker }, later), /wait|try again/i);
  });

  it("the per-e-mail ceiling bounds distributed guessing, but never refuses an address the user signed in from", async () => {
    const u = await userWithPassword();
    const t0 = new Date();
    await startSession(t.db, u.userId, { ip: "192.0.2.10" }, t0); // the owner's own address, seen at sign-in
    for (let i = 0; i < SIGNIN_LIMITS.emailCeiling; i++)
      await takeSigninAttempt(t.db, { email: u.email, ip: `198.18.${i >> 8}.${i & 255}` }, t0);
    const refused = await takeSigninAttempt(t.db, { email: u.email, ip: "198.51.100.250" }, t0).then(
      () => null,
      (e) => e,
    );
    assert.ok(refused instanceof DomainError && refused.code === "rate_limited", "a new address is refused");
    await (await takeSigninAttempt(t.db, { email: u.email, ip: "192.0.2.10" }, t0)).release();
  });

  it("the delay doubles per failure and is capped", () => {
    assert.equal(signinDelaySeconds(SIGNIN_LIMITS.email - 1), 0);
    assert.equal(signinDelaySeconds(SIGNIN_LIMITS.email), 60);
    assert.equal(signinDelaySeconds(SIGNIN_LIMITS.email + 1), 120);
    assert.equal(signinDelaySeconds(SIGNIN_LIMITS.email + 20), 900);
  });

  it("failures from one address use up its budget, except for a user who signed in from it", async () => {
    const ip = "203.0.113.200";
    const regular = await userWithPassword();
    await startSession(t.db, regular.userId, { ip });
    for (let i = 0; i < SIGNIN_LIMITS.ip; i++) await takeSigninAttempt(t.db, { email: email(), ip });
    await assert.rejects(takeSigninAttempt(t.db, { email: email(), ip }), (e: unknown) => {
      return e instanceof DomainError && e.code === "rate_limited";
    });
    // Behind the same (shared) address, the user who signs in there gets in; another address is untouched.
    await (await takeSigninAttempt(t.db, { email: regular.email, ip })).release();
    await (await takeSigninAttempt(t.db, { email: email(), ip: "203.0.113.201" })).release();
  });
});

describe("sessions end", () => {
  it("a signed-out session stays dead (the saved cookie's id is refused)", async () => {
    const u = await userWithPassword();
    const sid = await startSession(t.db, u.userId);
    assert.equal(await checkSession(t.db, sid, u.userId), true);
    await endSession(t.db, sid);
    assert.equal(await checkSession(t.db, sid, u.userId), false);
  });

  it("sign out everywhere ends every session; a password reset ends them all too", async () => {
    const u = await userWithPassword();
    const a = await startSession(t.db, u.userId);
    const b = await startSession(t.db, u.userId);
    assert.equal(await endUserSessions(t.db, u.userId, "sign_out_everywhere"), 2);
    assert.equal(await checkSession(t.db, a, u.userId), false);
    assert.equal(await checkSession(t.db, b, u.userId), false);
    const c = await startSession(t.db, u.userId);
    const reset = await startPasswordReset(t.db, u.email);
    await resetPasswordByToken(t.db, reset!.token, "another long password");
    assert.equal(await checkSession(t.db, c, u.userId), false);
  });

  it("24 h idle and 7 days absolute end a session whatever the cookie says; another user's id never works", async () => {
    const u = await userWithPassword();
    const t0 = new Date();
    const idle = await startSession(t.db, u.userId, {}, t0);
    assert.equal(await checkSession(t.db, idle, u.userId, new Date(t0.getTime() + SESSION_IDLE_SECONDS * 1000)), false);
    const busy = await startSession(t.db, u.userId, {}, t0);
    for (let h = 12; h < SESSION_ABSOLUTE_SECONDS / 3600; h += 12)
      assert.equal(await checkSession(t.db, busy, u.userId, new Date(t0.getTime() + h * 3600_000)), true, `hour ${h}`);
    assert.equal(
      await checkSession(t.db, busy, u.userId, new Date(t0.getTime() + SESSION_ABSOLUTE_SECONDS * 1000)),
      false,
    );
    const other = await userWithPassword();
    const mine = await startSession(t.db, u.userId);
    assert.equal(await checkSession(t.db, mine, other.userId), false);
  });
});

describe("keys and accounts", () => {
  it("key 11 of a Sandbox account is refused with a clear error; a revoked key frees a place", async () => {
    const owner = await createAccount(t.db, { email: email(), plan: "sandbox" }, systemActor("test"));
    const ids: string[] = [];
    const results = await Promise.allSettled(
      Array.from({ length: 14 }, () =>
        createKey(t.db, { accountId: owner.accountId, env: "test" }, systemActor("test")),
      ),
    );
    for (const r of results) if (r.status === "fulfilled") ids.push(r.value.id);
    assert.equal(ids.length, 10);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    assert.ok(refused.reason instanceof DomainError && refused.reason.status === 409);
    assert.match(refused.reason.message, /Sandbox plan allows 10 active keys/);
    await changeKeyStatus(t.db, ids[0], "revoke", systemActor("test"));
    await createKey(t.db, { accountId: owner.accountId, env: "test" }, systemActor("test"));
  });

  it("portal key creation is rate-limited per account", async () => {
    const owner = await createAccount(t.db, { email: email(), plan: "enterprise" }, systemActor("test"));
    const made = [];
    let refused: unknown = null;
    for (let i = 0; i < 40 && !refused; i++) {
      try {
        made.push(
          await createOwnKey(
            t.db,
            { accountId: owner.accountId, userId: owner.userId, env: "test", name: `k${i}` },
            systemActor("t"),
          ),
        );
      } catch (e) {
        refused = e;
      }
    }
    assert.ok(refused instanceof DomainError && refused.code === "rate_limited");
    assert.equal(made.length, 30);
  });

  it("deactivation refuses sign-in and switches keys off; reactivation restores exactly those keys", async () => {
    const u = await userWithPassword();
    const on = await createKey(t.db, { accountId: u.accountId, env: "test" }, systemActor("t"));
    const offByOwner = await createKey(t.db, { accountId: u.accountId, env: "test" }, systemActor("t"));
    const revoked = await createKey(t.db, { accountId: u.accountId, env: "test" }, systemActor("t"));
    await changeKeyStatus(t.db, offByOwner.id, "deactivate", systemActor("t"));
    await changeKeyStatus(t.db, revoked.id, "revoke", systemActor("t"));
    const sid = await startSession(t.db, u.userId);
    await setAccountStatus(t.db, u.accountId, "inactive", systemActor("t"));
    assert.equal(await verifyCredentials(t.db, u.email, PASSWORD), null);
    assert.equal(await checkSession(t.db, sid, u.userId), false);
    const status = async () =>
      Object.fromEntries(
        (await t.sql`select id, status from api_keys where account_id = ${u.accountId}`).map((r) => [r.id, r.status]),
      );
    assert.deepEqual(await status(), { [on.id]: "inactive", [offByOwner.id]: "inactive", [revoked.id]: "revoked" });
    await assert.rejects(createKey(t.db, { accountId: u.accountId, env: "test" }, systemActor("t")), /deactivated/);
    await assert.rejects(changeKeyStatus(t.db, offByOwner.id, "activate", systemActor("t")), /deactivated/);
    await setAccountStatus(t.db, u.accountId, "active", systemActor("t"));
    assert.deepEqual(await status(), { [on.id]: "active", [offByOwner.id]: "inactive", [revoked.id]: "revoked" });
    assert.ok(await verifyCredentials(t.db, u.email, PASSWORD));
  });
});

describe("quota per account and environment", () => {
  it("a second key of the same account gets no fresh quota; the burst stays per key", async () => {
    const a = await accountWithKey(t.db);
    const second = await createKey(t.db, { accountId: a.accountId, env: "test" }, systemActor("t"));
    const other = await accountWithKey(t.db);
    const now = new Date();
    const plan = { aPerMinute: 100, aPerMonth: 3, bPerMinute: 100, bPerDay: 3 };
    const call = (keyId: string, accountId: string, i: number): AdmissionCall => ({
      m: { requestId: `r${i}`, keyId, accountId, endpointId: "GET /api/v1/health", latencyMs: 1, now },
      burst: burstWindow("A", plan, now),
      quota: quotaWindow("A", plan, now),
      status: 200,
      errorCode: null,
      record: false,
    });
    const out = await runBatch(t.sql, [
      call(a.keyId, a.accountId, 1),
      call(a.keyId, a.accountId, 2),
      call(second.id, a.accountId, 3),
      call(second.id, a.accountId, 4),
      call(other.keyId, other.accountId, 5),
    ]);
    assert.deepEqual(
      out.map((o) => o.limited),
      [null, null, null, "quota", null],
    );
    assert.deepEqual(
      out.map((o) => o.burstUsed),
      [1, 2, 1, 2, 1],
    );
    // The state-touching path takes from the same account row.
    assert.equal(await takeQuota(t.db, second.id, quotaWindow("A", plan, now)), null);
    assert.equal(await takeQuota(t.db, other.keyId, quotaWindow("A", plan, now)), 2);
  });
});

describe("the audit log resists the app's own role", () => {
  it("TRUNCATE, DISABLE TRIGGER, session_replication_role, UPDATE and DELETE all fail; INSERT and SELECT work", async () => {
    const login = `ora_app_login_${randomBytes(4).toString("hex")}`;
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create role ${login} login in role ora_app`);
    const url = new URL(t.url);
    url.username = login;
    const app = postgres(url.toString(), { max: 1, onnotice: () => {} });
    try {
      await app`insert into audit_log (actor_type, actor_id, action, target) values ('system', 'x', 'test.row', 't')`;
      assert.ok((await app`select count(*)::int as n from audit_log`)[0].n >= 1);
      for (const attack of [
        "truncate audit_log",
        "alter table audit_log disable trigger all",
        "alter table audit_log disable trigger audit_log_no_update_delete",
        "set session_replication_role = replica",
        "update audit_log set action = 'x'",
        "delete from audit_log",
        "drop table audit_log",
        "drop trigger audit_log_no_truncate on audit_log",
      ]) {
        await assert.rejects(app.unsafe(attack), /permission denied|must be owner|append-only/, attack);
      }
      // Even the owner's TRUNCATE meets the statement trigger.
      await assert.rejects(t.sql`truncate audit_log`, /append-only/);
      // The app's ordinary work still runs as that role (keys, counters, sessions).
      await app`update usage_counters set count = count where false`;
      await app`select 1 from portal_sessions limit 1`;
    } finally {
      await app.end();
      await admin.unsafe(`drop owned by ${login}`).catch(() => {});
      await admin.unsafe(`drop role if exists ${login}`).catch(() => {});
      await admin.end();
    }
  });
});

describe("the application runs as ora_app; migrations run as the owner", () => {
  it("a member of ora_app starts on a migrated schema, migrates through DATABASE_OWNER_URL, and refuses a pending one", async () => {
    const login = `ora_app_start_${randomBytes(4).toString("hex")}`;
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create role ${login} login in role ora_app`);
    const url = new URL(t.url);
    url.username = login;
    const app = openDatabase(url.toString(), { max: 2 });
    const dir = mkdtempSync(join(tmpdir(), "ora-migrations-"));
    try {
      // No owner URL: it cannot migrate, checks that nothing is pending (migration 0016 lets it read that) and starts.
      assert.deepEqual(await prepareSchema(app, undefined), { name: login, canDefeatAudit: false, canMigrate: false });
      // With the owner's URL the owner migrates (nothing left to do here) and the app still cannot touch audit_log.
      assert.equal((await prepareSchema(app, t.url)).canDefeatAudit, false);
      // A migration the database has not seen: the app's role cannot apply it and says so instead of serving.
      mkdirSync(join(dir, "meta"));
      const journal = JSON.parse(readFileSync(join(migrationsFolder, "meta/_journal.json"), "utf8"));
      journal.entries.push({ idx: 99, version: "7", when: Date.now() + 86_400_000, tag: "9999_x", breakpoints: true });
      writeFileSync(join(dir, "meta/_journal.json"), JSON.stringify(journal));
      await assert.rejects(
        prepareSchema(app, undefined, dir),
        /1 database migration\(s\) are pending and the role .* cannot apply them: set DATABASE_OWNER_URL/,
      );
      // The owner's own URL as the app's while DATABASE_OWNER_URL is set: a misconfiguration, refused.
      await assert.rejects(
        prepareSchema(t, t.url),
        /owns audit_log or is a superuser although DATABASE_OWNER_URL is set/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await app.close();
      await admin.unsafe(`drop owned by ${login}`).catch(() => {});
      await admin.unsafe(`drop role if exists ${login}`).catch(() => {});
      await admin.end();
    }
  });

  it("the embedded engine runs the app as a member of ora_app after migrating: the same attacks fail there", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ora-embedded-role-"));
    const engine = await startEmbeddedDatabase(join(dir, "pglite"));
    try {
      const owner = openDatabase(engine.url, { max: 2 });
      assert.equal((await prepareSchema(owner, undefined)).canMigrate, true);
      await owner.close();
      await engine.runAsApp();
      const app = openDatabase(engine.url, { max: 1 });
      try {
        const role = await prepareSchema(app, undefined);
        assert.deepEqual(role, { name: EMBEDDED_APP_ROLE, canDefeatAudit: false, canMigrate: false });
        await app.sql`insert into audit_log (actor_type, actor_id, action, target) values ('system', 'x', 'test.row', 't')`;
        for (const attack of [
          "truncate audit_log",
          "alter table audit_log disable trigger all",
          "set session_replication_role = replica",
          "update audit_log set action = 'x'",
          "delete from audit_log",
        ])
          await assert.rejects(app.sql.unsafe(attack), /permission denied|must be owner|append-only/, attack);
      } finally {
        await app.close();
      }
    } finally {
      await engine.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("smaller ends", () => {
  it("webhook targets: ::/96 and link-local/metadata refused, the latter even when private targets are allowed", async () => {
    assert.equal(refusedRange("::7f00:1"), "loopback");
    assert.equal(refusedRange("[::a9fe:a9fe]"), "linkLocal");
    assert.equal(alwaysRefusedRange("169.254.169.254"), "metadata");
    assert.equal(alwaysRefusedRange("::ffff:169.254.169.254"), "metadata");
    assert.equal(alwaysRefusedRange("fd00:ec2::254"), "metadata");
    assert.equal(alwaysRefusedRange("fe80::1"), "linkLocal");
    assert.equal(alwaysRefusedRange("169.254.1.1"), "linkLocal");
    assert.equal(alwaysRefusedRange("127.0.0.1"), null);
    assert.match((await checkTargetHost("[::7f00:1]"))!, /loopback/);
  });

  it("e-mail addresses follow a strict grammar", () => {
    for (const bad of [
      "<svg/onload=alert(1)>@example.com",
      "a@b",
      "a..b@example.com",
      "a@-x.com",
      '"q"@example.com',
      "a@[127.0.0.1]",
      "a b@example.com",
    ])
      assert.throws(() => normaliseEmail(bad), DomainError, bad);
    assert.equal(normaliseEmail(" Jane.Doe+api@Example.co.uk "), "jane.doe+api@example.co.uk");
  });

  it("production refuses to start without SMTP_URL unless MAIL_TO_LOG=on", () => {
    assert.match(missingMailReason({ NODE_ENV: "production" } as NodeJS.ProcessEnv)!, /SMTP_URL is required/);
    assert.equal(missingMailReason({ NODE_ENV: "production", MAIL_TO_LOG: "on" } as NodeJS.ProcessEnv), null);
    assert.equal(missingMailReason({ NODE_ENV: "production", SMTP_URL: "smtp://x" } as NodeJS.ProcessEnv), null);
  });

  it("sign-in, failure, reset request and completion leave audit rows with the address", async () => {
    const u = await userWithPassword();
    await startPasswordReset(t.db, u.email, { requestId: "req_abc", ip: "192.0.2.5" });
    const rows =
      await t.sql`select action, ip, request_id from audit_log where after->>'email' = ${u.email} and action = 'user.reset_request'`;
    assert.deepEqual(
      [...rows].map((r) => ({ ...r })),
      [{ action: "user.reset_request", ip: "192.0.2.5", request_id: "req_abc" }],
    );
  });
});
