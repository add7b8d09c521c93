/**
 * API access requests and the self-serve plan change: bad input refused with the field and nothing written,
 * another account's request not found, approval through the operator CLI issues an svc_sk_live_ key kept encrypted
 * until
 * the requester sees it once (then the ciphertext is gone) and the key works on a Starter plan; a plan change reaches
 * keys at once.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { errorCodeOf } from "../helpers/api-server";
import { startRouteHarness, type Harness } from "../helpers/route-harness";
import { expectRefused, newOwner, type Owner } from "../helpers/portal-domain";
import { lastFridayClose, writeLiveMarket } from "../helpers/live-data";
import {
  approveAccessRequest,
  listAccessRequests,
  rejectAccessRequest,
  revealAccessKey,
  submitAccessRequest,
} from "../../lib/domain/access-requests";
import { changeOwnPlan, currentPlan, listPlans } from "../../lib/domain/plans";
import { createOwnKey } from "../../lib/domain/keys";
import { adminActor } from "../../lib/domain/audit";
import { bundled } from "../helpers/bundles";

const SECRET = "test-auth-secret-0123456789abcdef";
const OPERATOR = adminActor("test-operator");
let t: TestDatabase;
let api: Harness;

const form = {
  company: "Acme Research",
  useCase: "Nightly risk dashboards for our options desk.",
  expectedVolume: "1k_10k",
};
const submit = (o: Owner, over: Record<string, unknown> = {}) =>
  submitAccessRequest(t.db, { accountId: o.accountId, userId: o.userId, ...form, ...over }, o.actor);

async function call(key: string) {
  const res = await fetch(`${api.baseUrl}/api/v1/ai/symbol/AAPL/summary`, { headers: { "x-service-key": key } });
  return { status: res.status, code: errorCodeOf(await res.text()) };
}

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bundled("cli"), ...args],
      { env: { ...process.env, DATABASE_URL: t.url, AUTH_SECRET: SECRET, LOG_LEVEL: "warn" }, timeout: 60_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

describe("access requests and plan", () => {
  before(async () => {
    t = await createSeededTestDatabase("access", { seed: "options-research-demo-v1", now: new Date() });
    await writeLiveMarket(t.db, ["AAPL", "MSFT"], lastFridayClose(new Date())); // live keys read the live store
    api = await startRouteHarness(t.url);
  });
  after(async () => {
    await api?.stop();
    await t?.drop();
  });

  it("refuses bad input with the field at fault, and writes nothing", async () => {
    const o = await newOwner(t.db, { plan: "starter" });
    await expectRefused(t.sql, () => submit(o, { company: "  " }), { code: "invalid", field: "company" });
    await expectRefused(t.sql, () => submit(o, { company: "c".repeat(121) }), { code: "invalid", field: "company" });
    await expectRefused(t.sql, () => submit(o, { useCase: "too short" }), { code: "invalid", field: "useCase" });
    await expectRefused(t.sql, () => submit(o, { expectedVolume: "lots" }), {
      code: "invalid",
      field: "expectedVolume",
    });
    await expectRefused(t.sql, () => submit(o, { expectedVolume: undefined }), {
      code: "invalid",
      field: "expectedVolume",
    });
  });

  it("needs a verified e-mail and a paid plan (Starter or higher)", async () => {
    const unverified = await newOwner(t.db, { plan: "starter", verified: false });
    await expectRefused(t.sql, () => submit(unverified), { code: "forbidden", message: /verified e-mail/ });
    const sandbox = await newOwner(t.db);
    await expectRefused(t.sql, () => submit(sandbox), {
      code: "subscription_required",
      message: /Starter or higher.*Sandbox/,
    });
  });

  it("one pending request per account; another account sees none of it and cannot reveal its key", async () => {
    const o = await newOwner(t.db, { plan: "starter" });
    const other = await newOwner(t.db, { plan: "pro" });
    const r = await submit(o);
    assert.equal(r.status, "pending");
    assert.equal(r.ageBusinessDays, 0);
    assert.equal(r.overdue, false);
    await expectRefused(t.sql, () => submit(o), { code: "conflict", message: /pending/ });
    assert.deepEqual(await listAccessRequests(t.db, other.accountId), []);
    await expectRefused(
      t.sql,
      () =>
        submitAccessRequest(
          t.db,
          { accountId: "00000000-0000-0000-0000-000000000000", userId: other.userId, ...form },
          other.actor,
        ),
      { code: "not_found" },
    );
    assert.deepEqual(
      (await listAccessRequests(t.db, o.accountId)).map((x) => [x.id, x.company, x.status]),
      [[r.id, form.company, "pending"]],
    );
    await approveAccessRequest(t.db, r.id, OPERATOR, SECRET);
    await expectRefused(
      t.sql,
      () => revealAccessKey(t.db, { accountId: other.accountId, requestId: r.id }, other.actor, SECRET),
      { code: "not_found" },
    );
    await expectRefused(
      t.sql,
      () => revealAccessKey(t.db, { accountId: o.accountId, requestId: "not-a-uuid" }, o.actor, SECRET),
      { code: "not_found" },
    );
  });

  it("reject needs a reason; a decided request cannot be decided again", async () => {
    const o = await newOwner(t.db, { plan: "starter" });
    const r = await submit(o);
    await expectRefused(t.sql, () => rejectAccessRequest(t.db, r.id, " ", OPERATOR), {
      code: "invalid",
      field: "reason",
    });
    await expectRefused(
      t.sql,
      () => rejectAccessRequest(t.db, "00000000-0000-0000-0000-000000000000", "Not a fit", OPERATOR),
      { code: "not_found" },
    );
    const rejected = await rejectAccessRequest(t.db, r.id, "Resale is not allowed by the terms", OPERATOR);
    assert.deepEqual([rejected.status, rejected.reason], ["rejected", "Resale is not allowed by the terms"]);
    await expectRefused(t.sql, () => approveAccessRequest(t.db, r.id, OPERATOR, SECRET), { code: "conflict" });
    await expectRefused(
      t.sql,
      () => revealAccessKey(t.db, { accountId: o.accountId, requestId: r.id }, o.actor, SECRET),
      { code: "conflict" },
    );
  });

  it("CLI: access list / approve / reject; the key is shown to the requester once and works on Starter", async () => {
    const o = await newOwner(t.db, { plan: "starter" });
    const r = await submit(o);
    const list = await cli("access", "list");
    assert.equal(list.code, 0, list.stderr);
    const listed = JSON.parse(list.stdout).find((x: { id: string }) => x.id === r.id);
    assert.deepEqual([listed.email, listed.status, listed.accountId], [o.email, "pending", o.accountId]);
    const usage = await cli("access", "approve");
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--id is required/);
    const approved = await cli("access", "approve", "--id", r.id);
    assert.equal(approved.code, 0, approved.stderr);
    const view = JSON.parse(approved.stdout);
    assert.deepEqual([view.status, view.keyWaiting], ["approved", true]);
    assert.match(view.keyPrefix, /^svc_sk_live_/);
    assert.doesNotMatch(
      approved.stdout + approved.stderr,
      /svc_sk_live_[0-9A-Za-z]{30}/,
      "the CLI never prints the key",
    );
    const [row] = await t.sql`select key_ciphertext, key_id from access_requests where id = ${r.id}`;
    assert.match(row.key_ciphertext, /^v1\./);

    const shown = await revealAccessKey(t.db, { accountId: o.accountId, requestId: r.id }, o.actor, SECRET);
    assert.match(shown.key, /^svc_sk_live_[0-9A-Za-z]{30}$/);
    assert.ok(shown.key.startsWith(view.keyPrefix));
    assert.equal(shown.keyId, row.key_id);
    assert.ok(!row.key_ciphertext.includes(shown.key.slice(12)), "stored encrypted");
    const [after] = await t.sql`select key_ciphertext, key_shown_at from access_requests where id = ${r.id}`;
    assert.equal(after.key_ciphertext, null);
    assert.ok(after.key_shown_at);
    await expectRefused(
      t.sql,
      () => revealAccessKey(t.db, { accountId: o.accountId, requestId: r.id }, o.actor, SECRET),
      { code: "conflict", message: /already shown/ },
    );
    assert.equal((await call(shown.key)).status, 200);
    const actions = (
      await t.sql`select action from audit_log where target = ${`access_request:${r.id}`} order by id`
    ).map((x) => x.action);
    assert.deepEqual(actions, ["access_request.create", "access_request.approve", "access_request.key_shown"]);

    const second = await submit(o, { company: "Acme Two" });
    const rejected = await cli("access", "reject", "--id", second.id, "--reason", "Duplicate request");
    assert.equal(rejected.code, 0, rejected.stderr);
    assert.equal(JSON.parse(rejected.stdout).status, "rejected");
    const again = await cli("access", "reject", "--id", second.id, "--reason", "again");
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already rejected/);
  });

  it("a wrong AUTH_SECRET cannot open the stored key, and the ciphertext is kept", async () => {
    const o = await newOwner(t.db, { plan: "starter" });
    const r = await submit(o);
    await approveAccessRequest(t.db, r.id, OPERATOR, SECRET);
    await assert.rejects(() =>
      revealAccessKey(t.db, { accountId: o.accountId, requestId: r.id }, o.actor, "another-secret-0123456789"),
    );
    const [row] = await t.sql`select key_ciphertext from access_requests where id = ${r.id}`;
    assert.ok(row.key_ciphertext);
  });

  it("plan: both families' limits from the plans table; a change is audited and reaches live keys at once", async () => {
    const plans = await listPlans(t.db);
    assert.deepEqual(
      plans.map((p) => [p.id, p.aPerMinute, p.bPerDay]),
      [
        ["sandbox", 10, 100],
        ["starter", 30, 10_000],
        ["pro", 120, 100_000],
        ["enterprise", 600, 1_000_000],
      ],
    );
    const o = await newOwner(t.db, { plan: "pro" });
    const other = await newOwner(t.db);
    const live = await createOwnKey(
      t.db,
      { accountId: o.accountId, userId: o.userId, env: "live", name: "live" },
      o.actor,
    );
    assert.equal((await call(live.key)).status, 200);
    await expectRefused(t.sql, () => changeOwnPlan(t.db, { accountId: o.accountId, plan: "gold" }, o.actor), {
      code: "invalid",
      field: "plan",
    });
    await expectRefused(t.sql, () => changeOwnPlan(t.db, { accountId: o.accountId, plan: 3 }, o.actor), {
      code: "invalid",
      field: "plan",
    });
    await expectRefused(t.sql, () => changeOwnPlan(t.db, { accountId: o.accountId, plan: "pro" }, o.actor), {
      code: "conflict",
    });
    await expectRefused(
      t.sql,
      () => changeOwnPlan(t.db, { accountId: "00000000-0000-0000-0000-000000000000", plan: "pro" }, other.actor),
      { code: "not_found" },
    );
    const changed = await changeOwnPlan(t.db, { accountId: o.accountId, plan: "starter" }, o.actor);
    assert.equal(changed.plan, "starter");
    assert.equal((await currentPlan(t.db, o.accountId)).id, "starter");
    assert.equal((await currentPlan(t.db, other.accountId)).id, "sandbox");
    assert.deepEqual(await call(live.key), { status: 403, code: "subscription_required" });
    const [audit] =
      await t.sql`select actor_type, actor_id, before, after from audit_log where action = 'account.set_plan' and account_id = ${o.accountId}`;
    assert.deepEqual(
      { ...audit },
      { actor_type: "user", actor_id: o.userId, before: { plan: "pro" }, after: { plan: "starter" } },
    );
  });
});
