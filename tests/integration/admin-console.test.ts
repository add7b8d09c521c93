/**
 * The admin console's domain functions and CLI: bad input refused with the field and nothing written, the admin flag's
 * rules, account search, keys by prefix, the audit log's filters and pages (append-only in SQL), the CSV export, and
 * two API server processes enforcing a licensing change and a key deactivation within 5 s.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { parse } from "csv-parse/sync";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { errorCodeOf, startApiServer, type RunningServer } from "../helpers/api-server";
import { expectRefused, newOwner } from "../helpers/portal-domain";
import { seedReferenceData } from "../../lib/domain/seed";
import { endpointCatalogue } from "../../lib/api/routes";
import { adminActor, type Actor } from "../../lib/domain/audit";
import { createKey } from "../../lib/domain/keys";
import { changeLicensing, licensingHistory, listLicensing } from "../../lib/domain/admin-licensing";
import { accountDetail, searchAccounts, setAdminFlag, setKeyActive } from "../../lib/domain/admin-accounts";
import { queryAudit } from "../../lib/domain/admin-audit";
import { adminOverview, demoTickStale } from "../../lib/domain/admin-overview";
import { demoAccountWanted } from "../../lib/domain/demo-startup";
import { listAllAccessRequests, submitAccessRequest } from "../../lib/domain/access-requests";
import { bundled } from "../helpers/bundles";

let t: TestDatabase;
const FLOW = "GET /api/v1/options-flow";
const TABLES = ["api_keys", "audit_log", "endpoint_licensing", "users", "accounts"];

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bundled("cli"), ...args],
      { env: { ...process.env, DATABASE_URL: t.url, LOG_LEVEL: "warn" }, timeout: 60_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("admin console", () => {
  let admin: Awaited<ReturnType<typeof newOwner>>;
  let adminAct: Actor;
  before(async () => {
    t = await createSeededTestDatabase("admin", { seed: "options-research-demo-v1", now: new Date() });
    await seedReferenceData(t.db, endpointCatalogue());
    admin = await newOwner(t.db);
    await t.sql`update users set is_admin = true where id = ${admin.userId}`;
    adminAct = { type: "admin", id: admin.userId, requestId: "req_admin_1" };
  });
  after(async () => {
    await t?.drop();
  });

  it("licensing: bad input is refused with the field and writes nothing; a change is audited with its reason", async () => {
    const base = { endpointId: FLOW, env: "live", state: "enabled", reason: "licence signed 2026-11" };
    await expectRefused(
      t.sql,
      () => changeLicensing(t.db, { ...base, reason: " x " }, adminAct),
      { code: "invalid", field: "reason" },
      TABLES,
    );
    await expectRefused(
      t.sql,
      () => changeLicensing(t.db, { ...base, env: "prod" }, adminAct),
      { code: "invalid", field: "env" },
      TABLES,
    );
    await expectRefused(
      t.sql,
      () => changeLicensing(t.db, { ...base, state: "on" }, adminAct),
      { code: "invalid", field: "state" },
      TABLES,
    );
    await expectRefused(
      t.sql,
      () => changeLicensing(t.db, { ...base, endpointId: "GET /nope" }, adminAct),
      { code: "not_found" },
      TABLES,
    );
    const row = await changeLicensing(t.db, base, adminAct);
    assert.deepEqual([row.state, row.reason, row.changedBy], ["enabled", "licence signed 2026-11", admin.email]);
    const rows = await listLicensing(t.db);
    assert.equal(rows.length, endpointCatalogue().length * 2, "every endpoint × environment");
    const [h] = await licensingHistory(t.db, FLOW);
    assert.deepEqual(
      [h.env, h.before, h.after, h.reason, h.actor, h.requestId],
      ["live", "pending_licensing", "enabled", "licence signed 2026-11", admin.email, "req_admin_1"],
    );
  });

  it("admin flag: never one's own, never the last admin; granted and removed with an audit row", async () => {
    const other = await newOwner(t.db);
    await expectRefused(t.sql, () => setAdminFlag(t.db, admin.userId, false, adminAct), { code: "forbidden" }, TABLES);
    await expectRefused(
      t.sql,
      () => setAdminFlag(t.db, admin.userId, false, adminActor("cli:op")),
      { code: "conflict", message: /last admin/ },
      TABLES,
    );
    await expectRefused(t.sql, () => setAdminFlag(t.db, "not-a-uuid", true, adminAct), { code: "not_found" }, TABLES);
    assert.equal((await setAdminFlag(t.db, other.userId, true, adminAct)).admin, true);
    assert.equal((await setAdminFlag(t.db, other.userId, false, adminAct)).admin, false);
    const audit = await t.sql`select action from audit_log where target = ${`user:${other.userId}`} order by id`;
    assert.deepEqual(
      audit.map((r) => r.action),
      ["user.grant_admin", "user.revoke_admin"],
    );
  });

  it("search by e-mail, account id or key prefix; account detail; keys by prefix; bad search refused", async () => {
    const o = await newOwner(t.db);
    const key = await createKey(t.db, { accountId: o.accountId, env: "test", name: "search me" }, adminAct);
    for (const q of [o.email, o.email.slice(0, 10).toUpperCase(), o.accountId, key.prefix])
      assert.ok(
        (await searchAccounts(t.db, q)).some((a) => a.accountId === o.accountId),
        q,
      );
    assert.deepEqual(await searchAccounts(t.db, "nobody-matches-this"), []);
    await expectRefused(t.sql, () => searchAccounts(t.db, "a"), { code: "invalid", field: "q" }, TABLES);
    const d = await accountDetail(t.db, o.accountId);
    assert.deepEqual([d.members[0].email, d.keys[0].prefix, d.usage.days], [o.email, key.prefix, 30]);
    await expectRefused(
      t.sql,
      () => setKeyActive(t.db, { prefix: "svc_" }, false, adminAct),
      { code: "invalid", field: "prefix" },
      TABLES,
    );
    assert.equal((await setKeyActive(t.db, { prefix: key.prefix }, false, adminAct)).status, "inactive");
    // Another account's key through an account page is not found.
    const stranger = await newOwner(t.db);
    await expectRefused(
      t.sql,
      () => setKeyActive(t.db, { id: key.id, accountId: stranger.accountId }, true, adminAct),
      { code: "not_found" },
      TABLES,
    );
  });

  it("audit: filters, cursor pages, clear errors for bad filters, and UPDATE/DELETE refused in SQL", async () => {
    const all = await queryAudit(t.db, { actor: `admin:${admin.userId}`, limit: 2 });
    assert.equal(all.rows.length, 2);
    assert.ok(all.nextCursor);
    const next = await queryAudit(t.db, { actor: `admin:${admin.userId}`, limit: 2, cursor: all.nextCursor ?? "" });
    assert.ok(
      next.rows.every((r) => r.id < all.rows[1].id),
      "the next page continues after the last row",
    );
    const byAction = await queryAudit(t.db, { action: "key." });
    assert.ok(byAction.rows.length > 0 && byAction.rows.every((r) => r.action.startsWith("key.")));
    const lic = await queryAudit(t.db, { target: `endpoint:${FLOW}` });
    assert.equal(lic.rows[0].reason, "licence signed 2026-11");
    // People are shown by e-mail, and the actor filter takes an e-mail (any case, with or without the type).
    assert.deepEqual([lic.rows[0].actorEmail, lic.rows[0].actor], [admin.email, admin.email]);
    for (const actor of [admin.email, admin.email.toUpperCase(), `admin:${admin.email}`]) {
      const byEmail = await queryAudit(t.db, { actor, target: `endpoint:${FLOW}` });
      assert.deepEqual(
        byEmail.rows.map((r) => r.id),
        lic.rows.map((r) => r.id),
        actor,
      );
    }
    assert.deepEqual((await queryAudit(t.db, { actor: `user:${admin.email}`, target: `endpoint:${FLOW}` })).rows, []);
    assert.deepEqual((await queryAudit(t.db, { actor: "nobody@example.com" })).rows, []);
    assert.deepEqual((await queryAudit(t.db, { from: "2999-01-01" })).rows, []);
    for (const [filter, field] of [
      [{ from: "yesterday" }, "from"],
      [{ from: "2026-02-01", to: "2026-01-01" }, "from"],
      [{ cursor: "abc" }, "cursor"],
      [{ actor: "x".repeat(201) }, "actor"],
    ] as const)
      await expectRefused(t.sql, () => queryAudit(t.db, filter), { code: "invalid", field }, TABLES);
    await assert.rejects(t.sql`update audit_log set action = 'x' where id = ${all.rows[0].id}`);
    await assert.rejects(t.sql`delete from audit_log where id = ${all.rows[0].id}`);
    assert.equal(
      (await queryAudit(t.db, { limit: 1, cursor: String(all.rows[0].id + 1) })).rows[0].action,
      all.rows[0].action,
    );
  });

  it("overview: every route, freshness with the demo tick fresh and missing imports stale, pending counts", async () => {
    const o = await adminOverview(t.db);
    assert.equal(o.days.length, 30);
    assert.equal(o.routes.length, endpointCatalogue().length);
    assert.equal(o.freshness.find((f) => f.source === "demo:tick")?.stale, false);
    assert.equal(o.freshness.find((f) => f.source === "import:chain" && f.env === "live")?.stale, true);
    const [{ n }] = await t.sql`select count(*)::int as n from endpoints`;
    const [{ enabled }] = await t.sql`select count(*)::int as enabled from endpoint_licensing where state = 'enabled'`;
    assert.equal(o.pendingEndpoints, n * 2 - enabled);
  });

  it("overview: the demo tick is stale only when more than 10 minutes behind the demo clock (sessions 14:30–21:00 UTC)", () => {
    const at = (s: string) => new Date(s);
    for (const [newest, now, stale] of [
      ["2026-11-23T20:55:00Z", "2026-11-24T01:49:00Z", false], // Tuesday night: Monday's close is the newest there is
      ["2026-11-23T20:40:00Z", "2026-11-24T01:49:00Z", true], // stopped 20 minutes before Monday's close
      ["2026-11-24T14:55:00Z", "2026-11-24T15:00:00Z", false], // in the session: 5 minutes behind
      ["2026-11-24T14:45:00Z", "2026-11-24T15:00:00Z", true], // 15 minutes behind
      ["2026-11-27T20:59:00Z", "2026-11-29T12:00:00Z", false], // Sunday: Friday's close
      ["2026-11-26T21:00:00Z", "2026-11-29T12:00:00Z", true], // Sunday, last tick on Thursday
    ] as const)
      assert.equal(demoTickStale(at(newest), at(now)), stale, `${newest} at ${now}`);
    assert.equal(demoTickStale(null, at("2026-11-24T15:00:00Z")), true);
  });

  it("access requests: age in business days against the 1–3 day promise, overdue from the fourth", async () => {
    const o = await newOwner(t.db, { plan: "starter" });
    const r = await submitAccessRequest(
      t.db,
      {
        accountId: o.accountId,
        userId: o.userId,
        company: "Age Test Ltd",
        useCase: "Dashboards of options positioning for analysts.",
        expectedVolume: "under_1k",
      },
      o.actor,
    );
    await t.sql`update access_requests set created_at = '2026-11-13T12:00:00Z' where id = ${r.id}`; // a Friday
    const age = async (now: string) => {
      const row = (await listAllAccessRequests(t.db, new Date(now))).find((x) => x.id === r.id);
      return [row?.ageBusinessDays, row?.overdue];
    };
    assert.deepEqual(await age("2026-11-15T23:59:00Z"), [0, false]); // the weekend does not count
    assert.deepEqual(await age("2026-11-18T09:00:00Z"), [3, false]); // Mon, Tue, Wed: the promise's last day
    assert.deepEqual(await age("2026-11-19T09:00:00Z"), [4, true]);
  });

  it("CLI: account search, key deactivate|activate --prefix, admin grant|revoke, audit export as CSV and JSON", async () => {
    const o = await newOwner(t.db);
    const key = await createKey(t.db, { accountId: o.accountId, env: "test" }, adminAct);
    const found = await cli("account", "search", "--q", key.prefix);
    assert.equal(found.code, 0, found.stderr);
    assert.equal(JSON.parse(found.stdout)[0].accountId, o.accountId);
    const off = await cli("key", "deactivate", "--prefix", key.prefix);
    assert.equal(JSON.parse(off.stdout).status, "inactive");
    assert.equal(JSON.parse((await cli("key", "activate", "--prefix", key.prefix)).stdout).status, "active");
    assert.equal((await cli("key", "activate")).code, 2, "--id or --prefix is required");
    assert.equal(JSON.parse((await cli("admin", "grant", "--email", o.email)).stdout).admin, true);
    assert.equal(JSON.parse((await cli("admin", "revoke", "--email", o.email)).stdout).admin, false);
    const csv = await cli("audit", "export", "--target", `key:${key.id}`);
    assert.equal(csv.code, 0, csv.stderr);
    const records = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    assert.deepEqual(
      records.map((r) => r.action),
      ["key.activate", "key.deactivate", "key.create"],
    );
    assert.equal(records[1].actorId, `cli:${process.env.USER ?? "operator"}`);
    assert.equal(records[1].actorEmail, "", "an operator has no e-mail");
    assert.deepEqual(JSON.parse(records[1].after), { status: "inactive" });
    const json = await cli("audit", "export", "--target", `key:${key.id}`, "--format", "json");
    assert.equal(JSON.parse(json.stdout).length, 3);
    const bad = await cli("audit", "export", "--from", "soon");
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /from is a date/);
  });

  it("a production start creates no demo account unless DEMO_ACCOUNT=on; the embedded default does", () => {
    assert.equal(demoAccountWanted({ embedded: true }), true);
    assert.equal(demoAccountWanted({ embedded: false }), false);
    assert.equal(demoAccountWanted({ embedded: false, demoAccount: "on" }), true);
    assert.equal(demoAccountWanted({ embedded: true, demoAccount: "off" }), false);
  });

  describe("two API server processes", () => {
    let a: RunningServer;
    let b: RunningServer;
    before(async () => {
      // The servers' own cache lifetimes (not 0): the change must reach each within 5 s by itself.
      const env = { KEY_CACHE_TTL_MS: "4000", CONFIG_CACHE_TTL_MS: "4000" };
      [a, b] = await Promise.all([startApiServer(t.url, env), startApiServer(t.url, env)]);
    });
    after(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
    });

    async function until(server: RunningServer, key: string, code: string | null): Promise<number> {
      const start = Date.now();
      for (;;) {
        const res = await fetch(`${server.baseUrl}/api/v1/options-flow`, {
          headers: { authorization: `Bearer ${key}` },
        });
        const got = res.ok ? null : errorCodeOf(await res.text());
        if (got === code) return Date.now() - start;
        if (Date.now() - start > 8000)
          assert.fail(`${server.baseUrl} still answers ${got ?? res.status}, wanted ${code ?? "200"}`);
        await new Promise((r) => setTimeout(r, 1000)); // a test key's burst is 10 a minute
      }
    }

    /**
     * Both processes answer `code` no later than 5 s after the change that was just made. `settleMs` waits before the
     * first call: a refused call takes a burst unit too (docs/api-contract.md §4), so a phase that polls a refused key
     * from its first second would spend the key's 10 a minute before the caches' 4 s are up.
     */
    async function bothWithin5s(key: string, code: string | null, settleMs = 0): Promise<void> {
      const changed = Date.now();
      if (settleMs) await new Promise((r) => setTimeout(r, settleMs));
      for (const s of [a, b]) await until(s, key, code);
      assert.ok(Date.now() - changed <= 5000, `took ${Date.now() - changed} ms`);
    }

    it("a licensing change and a key deactivation reach both processes within 5 s", async () => {
      const o = await newOwner(t.db);
      // A fresh key per phase: each phase's calls stay within a test key's per-minute burst.
      const newKey = () => createKey(t.db, { accountId: o.accountId, env: "test" }, adminAct);
      const k1 = await newKey();
      await changeLicensing(
        t.db,
        { endpointId: FLOW, env: "test", state: "enabled", reason: "demo data is ours" },
        adminAct,
      );
      for (const s of [a, b]) await until(s, k1.key, null); // both served, caches warm
      await changeLicensing(
        t.db,
        { endpointId: FLOW, env: "test", state: "pending_licensing", reason: "review reopened" },
        adminAct,
      );
      await bothWithin5s(k1.key, "endpoint_pending_licensing", 4200);
      await changeLicensing(
        t.db,
        { endpointId: FLOW, env: "test", state: "enabled", reason: "review closed" },
        adminAct,
      );
      const k2 = await newKey();
      await bothWithin5s(k2.key, null);
      await setKeyActive(t.db, { prefix: k2.prefix }, false, adminAct);
      await bothWithin5s(k2.key, "inactive_key", 4200);
      await setKeyActive(t.db, { prefix: k2.prefix }, true, adminAct);
      await bothWithin5s(k2.key, null, 4200);
    });
  });
});
