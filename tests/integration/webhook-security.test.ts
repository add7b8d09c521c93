/**
 * Issue 16's webhook findings, each reproduced against real PostgreSQL and a real loopback receiver that verifies every
 * delivery with the published `standardwebhooks` package: a revoked or expired key's webhook kept delivering; a
 * deactivated account's webhooks kept delivering; webhook changes, test sends and replays left no audit rows; signing
 * secrets were stored in clear; the portal's test and replay were neither metered nor limited.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createSeededTestDatabase, createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { accountWithKey } from "../helpers/accounts";
import { newOwner } from "../helpers/portal-domain";
import { manualClock, startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { seedReferenceData } from "../../lib/domain/seed";
import { endpointCatalogue } from "../../lib/api/routes";
import { systemActor, type Actor } from "../../lib/domain/audit";
import { DomainError } from "../../lib/domain/errors";
import { changeKeyStatus, createKey } from "../../lib/domain/keys";
import { rollKey } from "../../lib/domain/key-roll";
import { setAccountStatus } from "../../lib/domain/accounts";
import { deleteWebhook, listWebhooks, registerWebhook } from "../../lib/domain/webhooks";
import { rotateWebhookSecret, setWebhookStatus } from "../../lib/domain/webhook-status";
import { listDeliveries, sendTestEvent } from "../../lib/domain/webhook-deliveries";
import { registerAccountWebhook, replayWebhook, setAccountWebhookStatus } from "../../lib/domain/webhook-registration";
import { enqueueEvent } from "../../lib/webhooks/outbox";
import { startWebhookWorker } from "../../lib/webhooks/worker";
import { sign } from "../../lib/webhooks/signing";
import { runMigrations } from "../../lib/db/migrate";
import { meteredWebhookCall } from "../../lib/server/webhook-metering";
import { startGateway, type Gateway } from "../../lib/server/gateway";
import { DISCLAIMER } from "../../lib/contract/disclaimer";

process.env.WEBHOOKS_ALLOW_PRIVATE_TARGETS = "true"; // the receiver is on loopback
process.env.DEMO_TICKER = "off";
process.env.LOG_LEVEL = "warn";

const T = systemActor("test");
let t: TestDatabase;
const receivers: Receiver[] = [];

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

let seq = 0;
/** A market event for AAPL, fanned out to every matching webhook as the producer does. */
const marketEvent = (now: Date) =>
  enqueueEvent(
    t.sql,
    {
      env: "live",
      type: "no_trade.decision_changed",
      symbol: "AAPL",
      threshold: null,
      dataVersion: null,
      dedupeKey: `sec:${Date.now()}:${seq++}`,
      payload: {
        type: "no_trade.decision_changed",
        timestamp: now.toISOString(),
        data: { symbol: "AAPL", decision: "trade", disclaimer: DISCLAIMER },
      },
    },
    now,
  );

async function hook(
  r: Receiver | null,
  opts: { plan?: string; env?: "test" | "live" } = {},
  owner?: { accountId: string; keyId: string; env: "test" | "live" },
) {
  const a = owner ?? (await accountWithKey(t.db, { plan: opts.plan ?? "pro", env: opts.env ?? "live" }));
  const env = "env" in a ? a.env : (opts.env ?? "live");
  const w = await registerWebhook(
    t.db,
    { accountId: a.accountId, keyId: a.keyId, env },
    { url: r?.url ?? "http://127.0.0.1:9/hook", events: ["no_trade.decision_changed"], symbols: ["AAPL"] },
    T,
  );
  r?.secrets.push(w.signingSecret);
  return { accountId: a.accountId, keyId: a.keyId, webhookId: w.webhookId, secret: w.signingSecret };
}

const worker = (clock: { now: () => Date }) =>
  startWebhookWorker(t, { allowPrivate: true, now: clock.now, random: () => 0.5, autoStart: false });

const statusOf = async (accountId: string) =>
  Object.fromEntries(
    (await listWebhooks(t.db, accountId)).map((w) => [w.webhookId, [w.status, w.disabledReason] as const]),
  );

after(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

/** Each group of tests on a database of its own, with the reference data (plans, endpoints). */
function freshDatabase(label: string) {
  before(async () => {
    t = await createTestDatabase(label);
    await seedReferenceData(t.db, endpointCatalogue());
  });
  after(async () => {
    await t?.drop();
  });
}

describe("webhooks follow their key and account", () => {
  freshDatabase("whsec");

  it("the webhook of a revoked key delivers nothing, not even events queued before the revocation", async () => {
    const r = await receiver();
    const h = await hook(r);
    const clock = manualClock();
    const w = worker(clock);
    // Before: a test event arrives, signed with the webhook's secret.
    await sendTestEvent(t, h.accountId, h.webhookId, T, clock.now());
    assert.equal(await w.runOnce(), 1);
    assert.deepEqual(r.received[0].verifiedBy, [0], "standardwebhooks verified the delivery");
    // Queued, then the key is revoked.
    assert.equal((await marketEvent(clock.now()))?.deliveries, 1);
    await sendTestEvent(t, h.accountId, h.webhookId, T, clock.now());
    await changeKeyStatus(t.db, h.keyId, "revoke", T, h.accountId);
    assert.equal(await w.runOnce(), 0, "nothing queued is delivered");
    clock.advance(7 * 24 * 3_600_000);
    assert.equal(await w.runOnce(), 0, "not later either");
    assert.equal((await marketEvent(clock.now()))?.deliveries, 0, "new events are not fanned out to it");
    await w.stop();
    assert.equal(r.received.length, 1);

    const [status, reason] = (await statusOf(h.accountId))[h.webhookId];
    assert.equal(status, "disabled");
    assert.match(reason ?? "", /that registered it was revoked/);
    const deliveries = (await listDeliveries(t, h.accountId, h.webhookId))!;
    assert.deepEqual(deliveries.map((d) => d.status).sort(), ["cancelled", "cancelled", "succeeded"]);
    // The owner cannot turn it back on, test it or replay to it.
    await assert.rejects(setWebhookStatus(t, h.accountId, h.webhookId, "active", T), /ended/);
    await assert.rejects(sendTestEvent(t, h.accountId, h.webhookId, T), /ended/);
    await assert.rejects(
      replayWebhook(t, h.accountId, h.webhookId, { eventId: r.received[0].id }, T),
      (e: unknown) => e instanceof DomainError && /ended/.test(e.message),
    );
  });

  it("fan-out and delivery check the key and account themselves (a change written behind the cascade's back)", async () => {
    const r = await receiver();
    const clock = manualClock();
    const w = worker(clock);
    for (const change of [
      (h: { keyId: string }) => t.sql`update api_keys set status = 'revoked' where id = ${h.keyId}`,
      (h: { keyId: string }) =>
        t.sql`update api_keys set expires_at = ${new Date(clock.now().getTime() - 1000).toISOString()} where id = ${h.keyId}`,
      (h: { keyId: string }) => t.sql`update api_keys set status = 'inactive' where id = ${h.keyId}`,
      (h: { accountId: string }) => t.sql`update accounts set status = 'inactive' where id = ${h.accountId}`,
    ]) {
      const h = await hook(r);
      assert.equal((await marketEvent(clock.now()))?.deliveries, 1);
      await change(h);
      assert.equal(await w.runOnce(), 0, "the claim skips it");
      assert.equal((await marketEvent(clock.now()))?.deliveries, 0, "the fan-out skips it");
      await t.sql`update webhooks set status = 'deleted' where id = ${h.webhookId}`;
    }
    await w.stop();
    assert.equal(r.received.length, 0);
  });

  it("a key that expires after a roll ends its webhooks (status and reason shown), with nothing delivered", async () => {
    const r = await receiver();
    const a = await accountWithKey(t.db, { plan: "pro", env: "test" });
    const h = await hook(r, {}, { accountId: a.accountId, keyId: a.keyId, env: "test" });
    const clock = manualClock();
    await sendTestEvent(t, h.accountId, h.webhookId, T, clock.now());
    await rollKey(t.db, { accountId: a.accountId, userId: "unused", keyId: a.keyId, overlap: "now" }, T, clock.now());
    clock.advance(1);
    const w = worker(clock);
    assert.equal(await w.runOnce(), 0);
    await w.stop();
    assert.equal(r.received.length, 0);
    const [status, reason] = (await statusOf(h.accountId))[h.webhookId];
    assert.equal(status, "disabled");
    assert.match(reason ?? "", /that registered it expired at/);
    const [row] =
      await t.sql`select action, actor_type from audit_log where target = ${`webhook:${h.webhookId}`} and action = 'webhook.disable'`;
    assert.deepEqual({ ...row }, { action: "webhook.disable", actor_type: "system" });
  });

  it("deactivating the account disables its webhooks; reactivation restores exactly those it disabled", async () => {
    const r = await receiver();
    const a = await accountWithKey(t.db, { plan: "pro", env: "live" });
    const other = await createKey(t.db, { accountId: a.accountId, env: "live" }, T);
    const revokedKey = await createKey(t.db, { accountId: a.accountId, env: "live" }, T);
    const owner = { accountId: a.accountId, keyId: a.keyId, env: "live" as const };
    const active = await hook(r, {}, owner);
    const paused = await hook(r, {}, owner);
    const gone = await hook(r, {}, owner); // disabled by the service (410) before
    const offKey = await hook(r, {}, { ...owner, keyId: other.id }); // its key switched off by the owner before
    const ended = await hook(r, {}, { ...owner, keyId: revokedKey.id }); // its key revoked before
    await setWebhookStatus(t, a.accountId, paused.webhookId, "paused", T);
    await t.sql`update webhooks set status = 'disabled', disabled_reason = 'The endpoint answered 410 Gone.' where id = ${gone.webhookId}`;
    await changeKeyStatus(t.db, other.id, "deactivate", T, a.accountId);
    await changeKeyStatus(t.db, revokedKey.id, "revoke", T, a.accountId);
    const before = await statusOf(a.accountId);
    assert.equal(before[offKey.webhookId][0], "disabled");
    assert.match(before[offKey.webhookId][1] ?? "", /is deactivated/);

    const clock = manualClock();
    const w = worker(clock);
    await setAccountStatus(t.db, a.accountId, "inactive", T);
    const off = await statusOf(a.accountId);
    assert.deepEqual(off[active.webhookId], [
      "disabled",
      "The account is deactivated; reactivating it turns the webhook back on.",
    ]);
    for (const h of [paused, gone, offKey, ended]) assert.deepEqual(off[h.webhookId], before[h.webhookId]);
    assert.equal((await marketEvent(clock.now()))?.deliveries, 0, "nothing is fanned out while deactivated");
    assert.equal(await w.runOnce(), 0);

    await setAccountStatus(t.db, a.accountId, "active", T);
    const on = await statusOf(a.accountId);
    assert.deepEqual(on[active.webhookId], ["active", null], "the one it disabled is back");
    for (const h of [paused, gone, offKey, ended])
      assert.deepEqual(on[h.webhookId], before[h.webhookId], "nothing else changed");
    assert.equal((await marketEvent(clock.now()))?.deliveries, 1, "only the restored webhook gets events");
    assert.equal(await w.runOnce(), 1);
    await w.stop();
    assert.equal(r.received.length, 1);
    assert.ok(r.received[0].verifiedBy.length === 1, "delivered signed with the restored webhook's secret");
    const actions =
      await t.sql`select action from audit_log where target = ${`webhook:${active.webhookId}`} order by id`;
    assert.deepEqual(
      actions.map((x) => x.action),
      ["webhook.register", "webhook.disable", "webhook.restore"],
    );
  });
});

describe("webhook signing secrets at rest", () => {
  freshDatabase("whsecret");

  it("the secret columns hold no clear text, and deliveries verify across a rotation", async () => {
    const r = await receiver();
    const h = await hook(r);
    const clock = manualClock();
    const w = worker(clock);
    const rotated = (await rotateWebhookSecret(t, h.accountId, h.webhookId, T, clock.now()))!;
    r.secrets.push(rotated.signingSecret);
    const [row] = await t.sql`select signing_secret, previous_secret from webhooks where id = ${h.webhookId}`;
    for (const stored of [row.signing_secret, row.previous_secret]) {
      assert.match(stored, /^v1\./, "sealed");
      assert.ok(!stored.includes("whsec_"));
      for (const s of [h.secret, rotated.signingSecret]) assert.ok(!stored.includes(s.slice(6, 20)));
    }
    const dump = JSON.stringify(await t.sql`select * from webhooks`);
    for (const s of [h.secret, rotated.signingSecret]) assert.ok(!dump.includes(s.slice(6)), "in no column");
    await sendTestEvent(t, h.accountId, h.webhookId, T, clock.now());
    assert.equal(await w.runOnce(), 1);
    assert.deepEqual(r.received.at(-1)!.verifiedBy, [0, 1], "each secret verifies the delivery alone");
    clock.advance(24 * 3_600_000 + 1);
    await sendTestEvent(t, h.accountId, h.webhookId, T, clock.now());
    assert.equal(await w.runOnce(), 1);
    await w.stop();
    // 24 hours on, the receiver's clock check (5 min) would refuse the timestamp: compare the signature itself.
    const last = r.received.at(-1)!;
    assert.equal(
      last.signature,
      sign(rotated.signingSecret, last.id, Number(last.timestamp), last.body),
      "after 24 hours only the new secret signs",
    );
  });

  it("migrating seals the secrets stored in clear before, and their deliveries still verify", async () => {
    const r = await receiver();
    const h = await hook(r);
    const plain = {
      current: "whsec_cGxhaW4tY3VycmVudC1zZWNyZXQtMTIzNDU=",
      previous: "whsec_cGxhaW4tcHJldmlvdXMtc2VjcmV0LTEyMzQ=",
    };
    await t.sql`update webhooks set signing_secret = ${plain.current}, previous_secret = ${plain.previous},
                previous_secret_expires_at = now() + interval '1 day' where id = ${h.webhookId}`;
    await runMigrations(t);
    const [row] = await t.sql`select signing_secret, previous_secret from webhooks where id = ${h.webhookId}`;
    assert.match(row.signing_secret, /^v1\./);
    assert.match(row.previous_secret, /^v1\./);
    r.secrets.splice(0, r.secrets.length, plain.current, plain.previous);
    const clock = manualClock();
    const w = worker(clock);
    await sendTestEvent(t, h.accountId, h.webhookId, T, clock.now());
    assert.equal(await w.runOnce(), 1);
    await w.stop();
    assert.deepEqual(r.received.at(-1)!.verifiedBy, [0, 1]);
    const [{ n }] =
      await t.sql`select count(*)::int as n from webhooks where signing_secret like 'whsec%' or previous_secret like 'whsec%'`;
    assert.equal(n, 0);
  });
});

describe("the portal's webhook test and replay are metered and limited like testAlert and replayAlert", () => {
  freshDatabase("whmeter");

  /** What the portal's routes do: the same domain function inside the metered call, for the owner's actor. */
  const portalTest = (o: { accountId: string; actor: Actor }, webhookId: string, now: Date) =>
    meteredWebhookCall(
      t,
      { accountId: o.accountId, webhookId, twin: "test", requestId: `req_${seq++}` },
      (d) => sendTestEvent(d, o.accountId, webhookId, o.actor, now),
      now,
    );

  /** A Pro owner and a webhook of one of the account's test keys, registered as the portal does. */
  async function ownerWithTestKeyWebhook() {
    const o = await newOwner(t.db, { plan: "pro" });
    const key = await createKey(t.db, { accountId: o.accountId, env: "test" }, T);
    const body = {
      keyId: key.id,
      webhook: { url: "http://127.0.0.1:9/hook", events: ["no_trade.decision_changed" as const], symbols: ["SPY"] },
    };
    const w = await registerAccountWebhook(t.db, o.accountId, body, o.actor, { allowPrivate: true, production: false });
    return { o, key, w };
  }

  it("60 test sends in a burst: the key's per-minute limit admits 5 (Sandbox, a test key), each counted", async () => {
    const { o, key, w } = await ownerWithTestKeyWebhook();
    const now = new Date();
    const outcomes = await Promise.allSettled(Array.from({ length: 60 }, () => portalTest(o, w.webhookId, now)));
    const ok = outcomes.filter((x) => x.status === "fulfilled").length;
    const refused = outcomes.flatMap((x) => (x.status === "rejected" ? [x.reason] : []));
    assert.equal(ok, 5);
    assert.equal(refused.length, 55);
    for (const e of refused) {
      assert.ok(e instanceof DomainError && e.code === "rate_limited", String(e));
      assert.ok((e as DomainError).detail.retryAfterSeconds! >= 1);
    }
    const events = await t.sql`select status, count(*)::int as n from usage_events
      where key_id = ${key.id} and endpoint_id = 'POST /api/v1/alerts/{webhookId}/test' group by status order by status`;
    assert.deepEqual(
      events.map((e) => [e.status, e.n]),
      [
        [202, 5],
        [429, 55],
      ],
    );
    const [{ n }] = await t.sql`select count(*)::int as n from webhook_deliveries where webhook_id = ${w.webhookId}`;
    assert.equal(n, 5, "only the admitted sends were queued");
    const [{ audited }] =
      await t.sql`select count(*)::int as audited from audit_log where target = ${`webhook:${w.webhookId}`} and action = 'webhook.test'`;
    assert.equal(audited, 5);
  });

  it("a spent daily quota refuses both, replay counted under replayAlert", async () => {
    const { o, key, w } = await ownerWithTestKeyWebhook();
    const now = new Date();
    const range = { from: new Date(now.getTime() - 3_600_000).toISOString(), to: now.toISOString() };
    const replay = () =>
      meteredWebhookCall(
        t,
        { accountId: o.accountId, webhookId: w.webhookId, twin: "replay", requestId: `req_${seq++}` },
        (d) => replayWebhook(d, o.accountId, w.webhookId, range, o.actor, now),
        now,
      );
    assert.deepEqual(await replay(), { queued: 0 });
    const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
    // The account's test-environment quota row (shared with every test key of the account), set to Sandbox's 100.
    await t.sql`insert into usage_counters (key_id, bucket, window_start, count) values (${`account:${o.accountId}:test`}, 'B:day', ${day}, 100)
      on conflict (key_id, bucket, window_start) do update set count = 100`;
    await assert.rejects(replay(), (e: unknown) => e instanceof DomainError && /daily quota of 100/.test(e.message));
    await assert.rejects(
      portalTest(o, w.webhookId, now),
      (e: unknown) => e instanceof DomainError && /daily quota/.test(e.message),
    );
    const events =
      await t.sql`select endpoint_id, status from usage_events where key_id = ${key.id} order by created_at, status`;
    assert.deepEqual(events.map((e) => [e.endpoint_id, e.status]).sort(), [
      ["POST /api/v1/alerts/{webhookId}/replay", 202],
      ["POST /api/v1/alerts/{webhookId}/replay", 403],
      ["POST /api/v1/alerts/{webhookId}/test", 403],
    ]);
  });
});

describe("audit rows for every webhook action, from the API and from the portal", () => {
  let gateway: Gateway;
  before(async () => {
    t = await createSeededTestDatabase("whaudit", { seed: "options-research-demo-v1", now: new Date() });
    gateway = await startGateway({ databaseUrl: t.url, poolMax: 4, demoTicker: false });
  });
  after(async () => {
    await gateway?.close();
    await t?.drop();
  });

  const EVERY_ACTION = [
    "webhook.register",
    "webhook.pause",
    "webhook.resume",
    "webhook.test",
    "webhook.replay",
    "webhook.rotate_secret",
    "webhook.delete",
  ];
  const rowsFor = (webhookId: string) =>
    t.sql`select action, actor_type, actor_id, request_id, before, after from audit_log
          where target = ${`webhook:${webhookId}`} order by id`;

  it("over /api/v1/alerts: register, pause, resume, test, replay, rotate, delete, each with the key and request id", async () => {
    const a = await accountWithKey(t.db, { plan: "pro", env: "live" });
    const r = await receiver();
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await gateway.handle(
        new Request(`http://127.0.0.1/api/v1/alerts${path}`, {
          method,
          headers: { authorization: `Bearer ${a.key}`, ...(body ? { "content-type": "application/json" } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        }),
      );
      const json = await res.json();
      assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return { data: json.data, requestId: res.headers.get("x-request-id") };
    };
    const created = await call("POST", "", { url: r.url, events: ["no_trade.decision_changed"], symbols: ["AAPL"] });
    const id = created.data.webhookId as string;
    const steps = [
      created,
      await call("PATCH", `/${id}`, { status: "paused" }),
      await call("PATCH", `/${id}`, { status: "active" }),
      await call("POST", `/${id}/test`),
      await call("POST", `/${id}/replay`, {
        from: new Date(Date.now() - 60_000).toISOString(),
        to: new Date(Date.now() + 60_000).toISOString(),
      }),
      await call("POST", `/${id}/rotate-secret`),
      await call("DELETE", `/${id}`),
    ];
    const rows = await rowsFor(id);
    assert.deepEqual(
      rows.map((x) => x.action),
      EVERY_ACTION,
    );
    for (const [i, row] of rows.entries()) {
      assert.equal(row.actor_type, "key");
      assert.equal(row.actor_id, a.keyId);
      assert.equal(row.request_id, steps[i].requestId, `${row.action}: the request's id`);
    }
    assert.deepEqual(rows[0].after.symbols, ["AAPL"]);
    assert.deepEqual([rows[1].before, rows[1].after], [{ status: "active" }, { status: "paused" }]);
    assert.deepEqual([rows[2].before, rows[2].after], [{ status: "paused" }, { status: "active" }]);
    assert.equal(rows[3].after.eventId, steps[3].data.eventId);
    assert.equal(rows[4].after.queued, 1);
    assert.deepEqual([rows[6].before, rows[6].after], [{ status: "active" }, { status: "deleted" }]);
    const text = JSON.stringify(rows);
    assert.ok(
      !text.includes(created.data.signingSecret) && !text.includes(steps[5].data.signingSecret),
      "no secret in the audit log",
    );
  });

  it("from the portal's domain calls: the same actions with the signed-in user and the request id", async () => {
    const o = await newOwner(t.db, { plan: "pro" });
    const key = await createKey(t.db, { accountId: o.accountId, env: "live" }, T);
    const body = {
      keyId: key.id,
      webhook: {
        url: "http://127.0.0.1:9/hook?token=s3cret",
        events: ["no_trade.decision_changed" as const],
        symbols: ["SPY"],
      },
    };
    const policy = { allowPrivate: true, production: false };
    const w = await registerAccountWebhook(t.db, o.accountId, body, o.actor, policy);
    await setAccountWebhookStatus(t, o.accountId, w.webhookId, "paused", o.actor);
    await setAccountWebhookStatus(t, o.accountId, w.webhookId, "active", o.actor);
    await meteredWebhookCall(
      t,
      { accountId: o.accountId, webhookId: w.webhookId, twin: "test", requestId: o.actor.requestId! },
      (d) => sendTestEvent(d, o.accountId, w.webhookId, o.actor),
    );
    const now = new Date();
    const range = {
      from: new Date(now.getTime() - 60_000).toISOString(),
      to: new Date(now.getTime() + 60_000).toISOString(),
    };
    await meteredWebhookCall(
      t,
      { accountId: o.accountId, webhookId: w.webhookId, twin: "replay", requestId: o.actor.requestId! },
      (d) => replayWebhook(d, o.accountId, w.webhookId, range, o.actor),
    );
    await rotateWebhookSecret(t, o.accountId, w.webhookId, o.actor);
    await deleteWebhook(t.db, o.accountId, w.webhookId, o.actor);
    const rows = await rowsFor(w.webhookId);
    assert.deepEqual(
      rows.map((x) => x.action),
      EVERY_ACTION,
    );
    for (const row of rows)
      assert.deepEqual([row.actor_type, row.actor_id, row.request_id], ["user", o.userId, o.actor.requestId]);
    assert.equal(rows[0].after.url, "http://127.0.0.1:9/hook", "the URL without its query (which may carry a token)");
    assert.ok(!JSON.stringify(rows).includes("s3cret"));
  });
});
