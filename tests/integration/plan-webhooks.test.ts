/**
 * Issue 30 decisions on plans and webhooks, against a real API server process and PostgreSQL: an unverified address
 * cannot choose a paid plan (so it cannot reach webhooks), and a move to a plan without webhooks disables the
 * account's active webhooks at once (the fan-out checks the plan too) until a plan with webhooks restores exactly them.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { startApiServer, type RunningServer } from "../helpers/api-server";
import { newOwner } from "../helpers/portal-domain";
import { createKey } from "../../lib/domain/keys";
import { changeOwnPlan } from "../../lib/domain/plans";
import { DomainError } from "../../lib/domain/errors";
import { keyAndAccountActive } from "../../lib/webhooks/outbox";

let t: TestDatabase;
let api: RunningServer;

async function register(key: string, n: number) {
  const res = await fetch(`${api.baseUrl}/api/v1/alerts`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      url: `http://127.0.0.1:9/plan/${n}`,
      events: ["no_trade.decision_changed"],
      symbols: ["AAPL"],
    }),
  });
  return { status: res.status, body: (await res.json()) as { data?: { webhookId: string }; error?: { code: string } } };
}

const state = async (id: string) =>
  (await t.sql`select status, disabled_by from webhooks where id = ${id}`)[0] as {
    status: string;
    disabled_by: string;
  };
const deliverable = async (id: string) =>
  (
    await t.sql`select count(*)::int as n from webhooks w where w.id = ${id} and ${keyAndAccountActive(t.sql, new Date())}`
  )[0].n as number;

describe("plans and webhooks", () => {
  before(async () => {
    t = await createTestDatabase("planhooks");
    api = await startApiServer(t.url, {
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true",
      NODE_ENV: "development",
      KEY_CACHE_TTL_MS: "0",
      CONFIG_CACHE_TTL_MS: "0",
    });
  });
  after(async () => {
    await api?.stop();
    await t?.drop();
  });

  it("an unverified owner cannot choose a paid plan; once verified it can", async () => {
    const o = await newOwner(t.db, { verified: false });
    for (const plan of ["starter", "pro", "enterprise"])
      await assert.rejects(changeOwnPlan(t.db, { accountId: o.accountId, plan }, o.actor), (err) => {
        assert.ok(err instanceof DomainError && err.code === "forbidden", String(err));
        assert.match(err.message, /Verify your e-mail address/);
        return true;
      });
    const [{ plan_id }] = await t.sql`select plan_id from accounts where id = ${o.accountId}`;
    assert.equal(plan_id, "sandbox");
    const key = await createKey(t.db, { accountId: o.accountId, env: "test", name: "k" }, o.actor);
    assert.equal((await register(key.key, 1)).body.error?.code, "subscription_required", "so no webhooks either");
    await t.sql`update users set email_verified = now() where id = ${o.userId}`;
    assert.equal((await changeOwnPlan(t.db, { accountId: o.accountId, plan: "pro" }, o.actor)).plan, "pro");
  });

  it("a downgrade to Sandbox disables the active webhooks; moving back to Pro restores exactly them", async () => {
    const o = await newOwner(t.db);
    await changeOwnPlan(t.db, { accountId: o.accountId, plan: "pro" }, o.actor);
    const key = await createKey(t.db, { accountId: o.accountId, env: "live", name: "k" }, o.actor);
    const first = await register(key.key, 2);
    const second = await register(key.key, 3);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const [a, b] = [first.body.data!.webhookId, second.body.data!.webhookId];
    await t.sql`update webhooks set status = 'paused' where id = ${b}`; // the owner paused this one
    assert.equal(await deliverable(a), 1);
    await changeOwnPlan(t.db, { accountId: o.accountId, plan: "sandbox" }, o.actor);
    assert.deepEqual({ ...(await state(a)) }, { status: "disabled", disabled_by: "plan_without_webhooks" });
    assert.equal((await state(b)).status, "paused", "a paused webhook stays paused");
    assert.equal(await deliverable(a), 0, "the fan-out checks the plan");
    const [audit] =
      await t.sql`select after from audit_log where action = 'webhook.disable' and target = ${`webhook:${a}`}`;
    assert.equal((audit.after as { disabledBy: string }).disabledBy, "plan_without_webhooks");
    await changeOwnPlan(t.db, { accountId: o.accountId, plan: "pro" }, o.actor);
    assert.deepEqual({ ...(await state(a)) }, { status: "active", disabled_by: null });
    assert.equal((await state(b)).status, "paused");
    assert.equal(await deliverable(a), 1);
  });
});
