/**
 * Webhooks across real server processes: the API routes end to end, two processes sharing a burst of 1,000 events
 * (each delivered once), and a process killed with SIGKILL mid-delivery whose events a restarted process delivers
 * with the same webhook-id. Every delivery is verified with the published `standardwebhooks` package.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { systemActor } from "../../lib/domain/audit";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { startApiServer, type RunningServer } from "../helpers/api-server";
import { accountWithKey } from "../helpers/accounts";
import { startReceiver, waitFor, type Receiver } from "../helpers/webhook-receiver";
import { registerWebhook } from "../../lib/domain/webhooks";
import { enqueueEvent } from "../../lib/webhooks/outbox";
import { DISCLAIMER } from "../../lib/contract/disclaimer";
import { seedReferenceData } from "../../lib/domain/seed";
import { endpointCatalogue } from "../../lib/api/routes";

const SERVER_ENV = { WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true", NODE_ENV: "development" };

describe("webhooks across server processes", () => {
  let t: TestDatabase;
  const servers: RunningServer[] = [];
  const receivers: Receiver[] = [];

  before(async () => {
    t = await createTestDatabase("whprocs");
    await seedReferenceData(t.db, endpointCatalogue());
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.kill("SIGKILL")));
    await Promise.all(receivers.map((r) => r.close()));
    await t?.drop();
  });

  async function server(env: Record<string, string> = {}) {
    const s = await startApiServer(t.url, { ...SERVER_ENV, ...env });
    servers.push(s);
    return s;
  }
  async function receiver(...args: Parameters<typeof startReceiver>) {
    const r = await startReceiver(...args);
    receivers.push(r);
    return r;
  }
  async function hook(url: string) {
    const a = await accountWithKey(t.db, { plan: "pro", env: "live" });
    return registerWebhook(
      t.db,
      { accountId: a.accountId, keyId: a.keyId, env: "live" },
      { url, events: ["no_trade.decision_changed"], symbols: ["AAPL"] },
      systemActor("test"),
    );
  }
  /** Queues n events for the webhook's subscription straight into the outbox, as the event producer does. */
  async function burst(n: number, label: string): Promise<void> {
    const now = new Date();
    for (let i = 0; i < n; i++) {
      await enqueueEvent(
        t.sql,
        {
          env: "live",
          type: "no_trade.decision_changed",
          symbol: "AAPL",
          threshold: null,
          dataVersion: i,
          dedupeKey: `${label}:${i}`,
          payload: {
            type: "no_trade.decision_changed",
            timestamp: now.toISOString(),
            data: { symbol: "AAPL", seq: i, disclaimer: DISCLAIMER, isMockData: false, dataLabel: "live" },
          },
        },
        now,
      );
    }
  }
  const succeeded = async (webhookId: string) =>
    (
      await t.sql<
        { n: number }[]
      >`select count(*)::int as n from webhook_deliveries where webhook_id = ${webhookId} and status = 'succeeded'`
    )[0].n;

  it("the API: register, test (202 + event id), deliveries with attempts, pause/resume, rotate-secret (two signatures)", async () => {
    const s = await server();
    const r = await receiver();
    const a = await accountWithKey(t.db, { plan: "pro", env: "live" });
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(s.baseUrl + path, {
        method,
        headers: { authorization: `Bearer ${a.key}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, json: (await res.json()) as any };
    };
    const created = await call("POST", "/api/v1/alerts", {
      url: r.url,
      events: ["iv.day_change_exceeded"],
      ivChangeAbove: 5,
      symbols: ["AAPL"],
    });
    assert.equal(created.status, 201, JSON.stringify(created.json));
    const id = created.json.data.webhookId;
    r.secrets.push(created.json.data.signingSecret);
    const test = await call("POST", `/api/v1/alerts/${id}/test`);
    assert.equal(test.status, 202);
    assert.match(test.json.data.eventId, /^msg_/);
    assert.equal(test.json.dataLabel, "none");
    await waitFor("the test delivery", () => r.received.length === 1);
    assert.equal(r.received[0].id, test.json.data.eventId);
    assert.deepEqual(r.received[0].verifiedBy, [0]);
    await waitFor(
      "the attempt to be recorded",
      async () =>
        (await call("GET", `/api/v1/alerts/${id}/deliveries`)).json.data.deliveries[0]?.status === "succeeded",
    );
    const listed = (await call("GET", `/api/v1/alerts/${id}/deliveries?limit=5`)).json.data.deliveries;
    assert.equal(listed.length, 1);
    assert.equal(listed[0].eventType, "webhook.test");
    assert.equal(listed[0].attempts[0].statusCode, 204);
    assert.equal(typeof listed[0].attempts[0].latencyMs, "number");

    const paused = await call("PATCH", `/api/v1/alerts/${id}`, { status: "paused" });
    assert.equal(paused.status, 200);
    assert.equal(paused.json.data.status, "paused");
    assert.equal((await call("POST", `/api/v1/alerts/${id}/test`)).status, 400);
    assert.equal(
      (await call("PATCH", `/api/v1/alerts/${id}`, { status: "disabled" })).status,
      400,
      "owners cannot set disabled",
    );
    assert.equal((await call("PATCH", `/api/v1/alerts/${id}`, { status: "active" })).json.data.status, "active");

    const rotated = await call("POST", `/api/v1/alerts/${id}/rotate-secret`);
    assert.equal(rotated.status, 200);
    r.secrets.push(rotated.json.data.signingSecret);
    await call("POST", `/api/v1/alerts/${id}/test`);
    await waitFor("the delivery after rotation", () => r.received.length === 2);
    assert.deepEqual(r.received[1].verifiedBy, [0, 1], "signed with the previous and the new secret");
    const replay = await call("POST", `/api/v1/alerts/${id}/replay`, { eventId: test.json.data.eventId });
    assert.equal(replay.status, 202);
    await waitFor("the replayed delivery", () => r.received.length === 3);
    assert.equal(r.received[2].id, test.json.data.eventId, "a replay keeps the webhook-id");
    const all = JSON.stringify((await call("GET", "/api/v1/alerts")).json);
    assert.ok(!all.includes("whsec_"), "no secret in the listing");
    assert.ok(!s.output().includes("whsec_"), "no secret in the logs");
    await s.stop();
    servers.splice(servers.indexOf(s), 1);
  });

  it("two processes deliver a burst of 1,000 events between them: each delivered, none twice", async () => {
    const r = await receiver();
    const w = await hook(r.url);
    r.secrets.push(w.signingSecret);
    const [a, b] = await Promise.all([server(), server()]);
    await burst(1000, "burst");
    await waitFor("1,000 deliveries", async () => (await succeeded(w.webhookId)) === 1000, 180_000);
    const ids = r.received.map((x) => x.id);
    assert.equal(new Set(ids).size, 1000);
    assert.equal(ids.length, 1000, "no event delivered twice");
    assert.ok(
      r.received.every((x) => x.verifiedBy.length === 1),
      "every delivery verified",
    );
    await Promise.all([a.stop(), b.stop()]);
    servers.length = 0;
  });

  it("a process killed with SIGKILL mid-delivery: after a restart every event arrives, with the same webhook-id", async () => {
    let phase: "hang" | "ok" = "hang";
    const r = await receiver([], () => (phase === "hang" ? "hang" : { status: 200 }));
    const w = await hook(r.url);
    r.secrets.push(w.signingSecret);
    await burst(40, "durable");
    const first = await server({ WEBHOOKS_LEASE_MS: "2000" });
    await waitFor("deliveries in flight", () => r.received.length >= 5);
    await first.kill("SIGKILL");
    servers.splice(servers.indexOf(first), 1);
    const inFlight = new Set(r.received.map((x) => x.id));
    phase = "ok";
    await server({ WEBHOOKS_LEASE_MS: "2000" });
    await waitFor("all 40 delivered after the restart", async () => (await succeeded(w.webhookId)) === 40, 120_000);
    const answered = new Set(r.received.filter((x) => x.answered === 200).map((x) => x.id));
    assert.equal(answered.size, 40, "every event delivered at least once");
    for (const id of inFlight)
      assert.ok(answered.has(id), `the event in flight at the kill (${id}) was delivered again with its webhook-id`);
    assert.ok(r.received.every((x) => x.verifiedBy.length === 1));
  });
});
