/**
 * Webhook delivery at the domain level against real PostgreSQL and a real loopback receiver (verified with the
 * published `standardwebhooks` package): signing, retry schedule on an injectable clock, 410 and 5-day disabling,
 * pause/resume/delete, test events, deliveries with attempts, replay of one event and of a time range, secret rotation,
 * and events computed once per data version.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { accountWithKey } from "../helpers/accounts";
import { manualClock, startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { seedReferenceData } from "../../lib/domain/seed";
import { endpointCatalogue } from "../../lib/api/routes";
import { deleteWebhook, listWebhooks, registerWebhook, type WebhookInput } from "../../lib/domain/webhooks";
import { rotateWebhookSecret, setWebhookStatus } from "../../lib/domain/webhook-status";
import { listDeliveries, replayEvent, replayRange, sendTestEvent } from "../../lib/domain/webhook-deliveries";
import { startWebhookWorker } from "../../lib/webhooks/worker";
import { produceEvents } from "../../lib/webhooks/producer";
import { RETRY_DELAYS_MS, MAX_ATTEMPTS } from "../../lib/webhooks/schedule";
import type { SymbolState } from "../../lib/engine/market-events";
import { DISCLAIMER } from "../../lib/contract/disclaimer";
import { systemActor } from "../../lib/domain/audit";

const T = systemActor("test");

describe("webhook delivery (domain functions, outbox, worker)", () => {
  let t: TestDatabase;
  const receivers: Receiver[] = [];

  before(async () => {
    t = await createTestDatabase("whdeliver");
    await seedReferenceData(t.db, endpointCatalogue());
  });
  after(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await t?.drop();
  });

  async function hookFor(receiver: Receiver | null, input: Partial<WebhookInput> = {}, env: "test" | "live" = "live") {
    const a = await accountWithKey(t.db, { plan: "pro", env: "live" });
    const w = await registerWebhook(
      t.db,
      { accountId: a.accountId, keyId: a.keyId, env },
      {
        url: receiver?.url ?? "http://127.0.0.1:9/hook",
        events: ["no_trade.decision_changed"],
        symbols: ["AAPL"],
        ...input,
      },
      T,
    );
    receiver?.secrets.push(w.signingSecret);
    return { accountId: a.accountId, webhookId: w.webhookId, secret: w.signingSecret };
  }
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const r = await startReceiver(...args);
    receivers.push(r);
    return r;
  };
  const worker = (clock: { now: () => Date }) =>
    startWebhookWorker(t, { allowPrivate: true, now: clock.now, random: () => 0.5, autoStart: false });

  it("a test event is delivered once, signed per Standard Webhooks, with the disclaimer, mock flag and data label", async () => {
    const r = await receiver();
    const h = await hookFor(r);
    const clock = manualClock();
    const w = worker(clock);
    const eventId = await sendTestEvent(t, h.accountId, h.webhookId, T, clock.now());
    assert.match(eventId!, /^msg_[0-9a-f]{24}$/);
    assert.equal(await w.runOnce(), 1);
    assert.equal(await w.runOnce(), 0, "nothing left to deliver");
    await w.stop();
    assert.equal(r.received.length, 1);
    const got = r.received[0];
    assert.equal(got.id, eventId);
    assert.deepEqual(got.verifiedBy, [0], "standardwebhooks verified the signature");
    assert.equal(got.timestamp, String(Math.floor(clock.now().getTime() / 1000)));
    const body = JSON.parse(got.body);
    assert.deepEqual(Object.keys(body).sort(), ["data", "timestamp", "type"]);
    assert.equal(body.type, "webhook.test");
    assert.equal(body.data.disclaimer, DISCLAIMER);
    assert.equal(body.data.isMockData, true);
    assert.equal(body.data.dataLabel, "demo");
    assert.ok(Buffer.byteLength(got.body) < 20_000);
    const [d] = (await listDeliveries(t, h.accountId, h.webhookId))!;
    assert.equal(d.status, "succeeded");
    assert.equal(d.attempts.length, 1);
    assert.equal(d.attempts[0].statusCode, 204);
  });

  it("retries at 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h with the same webhook-id, then gives up", async () => {
    const r = await receiver([], () => ({ status: 503, body: "busy ".repeat(2000) }));
    const h = await hookFor(r);
    const start = new Date();
    const clock = manualClock(start);
    const w = worker(clock);
    const eventId = await sendTestEvent(t, h.accountId, h.webhookId, T, clock.now());
    assert.equal(await w.runOnce(), 1);
    for (const delay of RETRY_DELAYS_MS) {
      clock.advance(delay - 1);
      assert.equal(await w.runOnce(), 0, `not yet due ${delay - 1} ms after the previous attempt`);
      clock.advance(1);
      assert.equal(await w.runOnce(), 1, `due ${delay} ms after the previous attempt`);
    }
    clock.advance(30 * 24 * 3_600_000);
    assert.equal(await w.runOnce(), 0, "the schedule is spent");
    await w.stop();
    assert.equal(r.received.length, MAX_ATTEMPTS);
    assert.ok(
      r.received.every((x) => x.id === eventId),
      "the same webhook-id on every retry",
    );
    const [d] = (await listDeliveries(t, h.accountId, h.webhookId))!;
    assert.equal(d.status, "failed");
    assert.equal(d.attemptCount, 8);
    const gaps = d.attempts
      .slice(1)
      .map((a, i) => new Date(a.attemptedAt).getTime() - new Date(d.attempts[i].attemptedAt).getTime());
    assert.deepEqual(gaps, [...RETRY_DELAYS_MS]);
    assert.ok(d.attempts.every((a) => a.statusCode === 503 && a.error === "http_status"));
    assert.equal(d.attempts[0].responseExcerpt!.length, 512, "the first bytes of the answer are kept");
    const [hook] = await listWebhooks(t.db, h.accountId);
    assert.equal(hook.status, "active", "less than 5 days of failure does not disable");
  });

  it("410 disables the endpoint at once, with the reason; the owner re-enables it and held deliveries go out", async () => {
    let gone = true;
    const r = await receiver([], () => (gone ? { status: 410 } : { status: 200 }));
    const h = await hookFor(r);
    const clock = manualClock();
    const w = worker(clock);
    await sendTestEvent(t, h.accountId, h.webhookId, T, clock.now());
    await w.runOnce();
    const [hook] = await listWebhooks(t.db, h.accountId);
    assert.equal(hook.status, "disabled");
    assert.match(hook.disabledReason!, /410/);
    clock.advance(RETRY_DELAYS_MS[0]);
    assert.equal(await w.runOnce(), 0, "a disabled webhook gets no attempt");
    await assert.rejects(() => setWebhookStatus(t, h.accountId, h.webhookId, "paused", T), /re-enabled/);
    gone = false;
    await setWebhookStatus(t, h.accountId, h.webhookId, "active", T, clock.now());
    assert.equal(await w.runOnce(), 1, "the held delivery goes out on re-enable");
    await w.stop();
    const [again] = await listWebhooks(t.db, h.accountId);
    assert.equal(again.status, "active");
    assert.equal(again.disabledReason, null);
    assert.equal(r.received.at(-1)!.answered, 200);
  });

  it("an endpoint failing without a success for 5 days is disabled and says why", async () => {
    const r = await receiver([], () => ({ status: 500 }));
    const h = await hookFor(r);
    const clock = manualClock();
    const w = worker(clock);
    for (let day = 0; day <= 5; day++) {
      await sendTestEvent(t, h.accountId, h.webhookId, T, clock.now());
      await w.runOnce();
      const [hook] = await listWebhooks(t.db, h.accountId);
      assert.equal(hook.status, day < 5 ? "active" : "disabled", `day ${day}`);
      if (day === 5) assert.match(hook.disabledReason!, /5 days/);
      clock.advance(24 * 3_600_000);
    }
    await w.stop();
  });

  it("pause holds deliveries, resume releases them; delete cancels what is queued", async () => {
    const r = await receiver();
    const h = await hookFor(r);
    const clock = manualClock();
    const w = worker(clock);
    const e1 = await sendTestEvent(t, h.accountId, h.webhookId, T, clock.now());
    await setWebhookStatus(t, h.accountId, h.webhookId, "paused", T, clock.now());
    assert.equal((await listWebhooks(t.db, h.accountId))[0].status, "paused");
    assert.equal(await w.runOnce(), 0);
    await assert.rejects(() => sendTestEvent(t, h.accountId, h.webhookId, T, clock.now()), /paused/);
    await setWebhookStatus(t, h.accountId, h.webhookId, "active", T, clock.now());
    assert.equal(await w.runOnce(), 1);
    assert.equal(r.received[0].id, e1);
    await sendTestEvent(t, h.accountId, h.webhookId, T, clock.now());
    await deleteWebhook(t.db, h.accountId, h.webhookId, T);
    assert.equal(await w.runOnce(), 0);
    await w.stop();
    const [row] =
      await t.sql`select count(*)::int as n from webhook_deliveries where webhook_id = ${h.webhookId} and status = 'cancelled'`;
    assert.equal(row.n, 1);
    assert.equal(
      await listDeliveries(t, h.accountId, h.webhookId),
      null,
      "a deleted webhook has no deliveries to show",
    );
  });

  it("another account sees none of it: every function answers null for a webhook it does not own", async () => {
    const h = await hookFor(null);
    const other = await accountWithKey(t.db, { plan: "pro", env: "live" });
    assert.equal(await listDeliveries(t, other.accountId, h.webhookId), null);
    assert.equal(await sendTestEvent(t, other.accountId, h.webhookId, T), null);
    assert.equal(await setWebhookStatus(t, other.accountId, h.webhookId, "paused", T), null);
    assert.equal(await rotateWebhookSecret(t, other.accountId, h.webhookId, T), null);
    assert.equal(await replayRange(t, other.accountId, h.webhookId, new Date(0), new Date(1000), T), null);
    assert.equal((await listWebhooks(t.db, h.accountId))[0].status, "active");
    const listed = JSON.stringify(await listWebhooks(t.db, h.accountId));
    assert.ok(!listed.includes(h.secret) && !listed.includes("whsec_"), "no secret in any listing");
  });

  it("replays one event and every event of a time range with the same webhook-id, fresh schedule", async () => {
    const r = await receiver();
    const h = await hookFor(r);
    const clock = manualClock(new Date(Date.now() - 3_600_000));
    const w = worker(clock);
    const first = (await sendTestEvent(t, h.accountId, h.webhookId, T, clock.now()))!;
    clock.advance(60_000);
    const second = (await sendTestEvent(t, h.accountId, h.webhookId, T, clock.now()))!;
    await w.runOnce();
    assert.equal(await replayEvent(t, h.accountId, h.webhookId, first, T, clock.now()), true);
    assert.equal(await replayEvent(t, h.accountId, h.webhookId, "msg_000000000000000000000000", T, clock.now()), false);
    await w.runOnce();
    assert.deepEqual(
      r.received.map((x) => x.id),
      [first, second, first],
    );
    const from = new Date(clock.now().getTime() - 120_000);
    assert.equal(
      await replayRange(t, h.accountId, h.webhookId, from, new Date(clock.now().getTime() + 1), T, clock.now()),
      2,
    );
    await w.runOnce();
    assert.deepEqual(
      r.received
        .slice(3)
        .map((x) => x.id)
        .sort(),
      [first, second].sort(),
    );
    await assert.rejects(() => replayRange(t, h.accountId, h.webhookId, clock.now(), from, T), /before/);
    await w.stop();
    const deliveries = (await listDeliveries(t, h.accountId, h.webhookId))!;
    const firstDelivery = deliveries.find((d) => d.eventId === first)!;
    assert.equal(firstDelivery.attempts.length, 3, "every attempt stays in the log");
    assert.equal(firstDelivery.attemptCount, 1, "a replay starts a new schedule");
  });

  it("a rotated secret: both secrets sign for 24 hours, then only the new one", async () => {
    const r = await receiver();
    const h = await hookFor(r);
    const clock = manualClock();
    const rotated = (await rotateWebhookSecret(t, h.accountId, h.webhookId, T, clock.now()))!;
    assert.match(rotated.signingSecret, /^whsec_/);
    assert.notEqual(rotated.signingSecret, h.secret);
    assert.equal(new Date(rotated.previousSecretExpiresAt).getTime() - clock.now().getTime(), 24 * 3_600_000);
    r.secrets.push(rotated.signingSecret);
    const w = worker(clock);
    await sendTestEvent(t, h.accountId, h.webhookId, T, clock.now());
    await w.runOnce();
    assert.equal(r.received[0].signature.split(" ").length, 2);
    assert.deepEqual(r.received[0].verifiedBy, [0, 1], "old and new secret each verify");
    clock.advance(24 * 3_600_000 + 1);
    // standardwebhooks checks the timestamp against the real clock, so compare signatures by count and by the new key only.
    await sendTestEvent(t, h.accountId, h.webhookId, T, clock.now());
    await w.runOnce();
    await w.stop();
    assert.equal(r.received[1].signature.split(" ").length, 1, "the previous secret no longer signs");
  });

  it("events are computed once per data version, fire once per crossing, and reach only matching subscriptions", async () => {
    const r = await receiver();
    const above60 = await hookFor(r, { events: ["iv_rank.crossed_above"], ivRankAbove: 60, symbols: ["MSFT"] }, "test");
    const above80 = await hookFor(r, { events: ["iv_rank.crossed_above"], ivRankAbove: 80, symbols: ["MSFT"] }, "test");
    const decisions = await hookFor(
      r,
      { events: ["no_trade.decision_changed", "iv.day_change_exceeded"], ivChangeAbove: 3, symbols: ["MSFT"] },
      "test",
    );
    const st = (ivRank: number, decision: string, ivDayChange = 0): Record<string, SymbolState> => ({
      MSFT: { ivRank, decision, ivDayChange, atmIv30: 0.3, asOf: new Date().toISOString() },
    });
    const now = new Date();
    assert.equal(
      await produceEvents(t, "demo", 1, st(50, "trade"), now),
      0,
      "the first version seen has nothing to compare with",
    );
    // Two processes recompute version 2 at once: one writes the events, the other finds the version done.
    const both = await Promise.all([
      produceEvents(t, "demo", 2, st(70, "caution", 4), now),
      produceEvents(t, "demo", 2, st(70, "caution", 4), now),
    ]);
    assert.deepEqual(both.sort(), [0, 3]);
    assert.equal(await produceEvents(t, "demo", 3, st(75, "caution", 4.5), now), 0, "still above: no new crossing");
    assert.equal(await produceEvents(t, "demo", 2, st(10, "no_trade"), now), 0, "an older version is ignored");
    assert.equal(
      await produceEvents(t, "demo", 4, st(55, "caution"), now),
      0,
      "falling back below fires nothing for crossed_above",
    );
    assert.equal(
      await produceEvents(t, "demo", 5, st(85, "caution"), now),
      2,
      "crossing 60 again and 80 for the first time",
    );
    const w = worker(manualClock(now));
    await w.runOnce();
    await w.stop();
    const byHook = async (h: { accountId: string; webhookId: string }) =>
      ((await listDeliveries(t, h.accountId, h.webhookId)) ?? []).map((d) => d.eventType).sort();
    assert.deepEqual(await byHook(above60), ["iv_rank.crossed_above", "iv_rank.crossed_above"]);
    assert.deepEqual(await byHook(above80), ["iv_rank.crossed_above"]);
    assert.deepEqual(await byHook(decisions), ["iv.day_change_exceeded", "no_trade.decision_changed"]);
    const bodies = r.received.map((x) => JSON.parse(x.body));
    const decision = bodies.find((b) => b.type === "no_trade.decision_changed");
    assert.deepEqual(
      [decision.data.previousDecision, decision.data.decision, decision.data.symbol],
      ["trade", "caution", "MSFT"],
    );
    assert.equal(decision.data.isMockData, true);
    assert.equal(decision.data.dataLabel, "demo");
    assert.equal(decision.data.disclaimer, DISCLAIMER);
    assert.ok(r.received.every((x) => x.verifiedBy.length === 1));
    const [{ n }] =
      await t.sql`select count(*)::int as n from webhook_events where env = 'test' and type <> 'webhook.test'`;
    assert.equal(n, 5, "one event row per (version, type, symbol, threshold), however many subscribers");
  });
});
