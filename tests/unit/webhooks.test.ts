/** Webhook pure parts: Standard Webhooks signatures (against the published package), the retry schedule's jitter, event detection. */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { newSigningSecret, sign, signedHeaders } from "../../lib/webhooks/signing";
import { JITTER, MAX_ATTEMPTS, RETRY_DELAYS_MS, retryDelayMs } from "../../lib/webhooks/schedule";
import { addSubscription, detectEvents, emptySubscriptions, type SymbolState } from "../../lib/engine/market-events";

describe("webhook signing", () => {
  it("matches the standardwebhooks package byte for byte, and verifies with it", () => {
    const secret = newSigningSecret();
    const ts = new Date();
    const body = JSON.stringify({ type: "webhook.test", timestamp: ts.toISOString(), data: { a: "é" } });
    const sec = Math.floor(ts.getTime() / 1000);
    assert.equal(sign(secret, "msg_1", sec, body), new Webhook(secret).sign("msg_1", new Date(sec * 1000), body));
    const headers = signedHeaders([secret], "msg_1", sec, body);
    assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
    assert.throws(() => new Webhook(newSigningSecret()).verify(body, headers), /signature/i);
    assert.throws(() => new Webhook(secret).verify(body + " ", headers), /signature/i);
  });

  it("two secrets give two space-separated signatures, each verifying alone", () => {
    const [a, b] = [newSigningSecret(), newSigningSecret()];
    const sec = Math.floor(Date.now() / 1000);
    const h = signedHeaders([a, b], "msg_2", sec, "{}");
    assert.equal(h["webhook-signature"].split(" ").length, 2);
    for (const s of [a, b]) assert.deepEqual(new Webhook(s).verify("{}", h), {});
  });
});

describe("retry schedule", () => {
  it("5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after each failure, ±10 % jitter, 8 attempts in all", () => {
    assert.deepEqual(
      RETRY_DELAYS_MS.map((ms) => ms / 1000),
      [5, 300, 1800, 7200, 18000, 36000, 36000],
    );
    assert.equal(MAX_ATTEMPTS, 8);
    RETRY_DELAYS_MS.forEach((base, i) => {
      assert.equal(
        retryDelayMs(i + 1, () => 0.5),
        base,
      );
      assert.equal(
        retryDelayMs(i + 1, () => 0),
        Math.round(base * (1 - JITTER)),
      );
      assert.equal(
        retryDelayMs(i + 1, () => 1),
        Math.round(base * (1 + JITTER)),
      );
    });
    assert.equal(
      retryDelayMs(8, () => 0.5),
      null,
    );
  });
});

describe("event detection", () => {
  const s = (ivRank: number | null, decision = "trade", ivDayChange: number | null = 0): SymbolState => ({
    ivRank,
    decision,
    ivDayChange,
    atmIv30: 0.25,
    asOf: "2026-11-23T15:00:00.000Z",
  });
  const subs = emptySubscriptions();
  addSubscription(
    subs,
    ["iv_rank.crossed_above", "iv_rank.crossed_below", "iv.day_change_exceeded", "no_trade.decision_changed"],
    ["AAPL"],
    { ivRankAbove: 70, ivRankBelow: 30, ivChangeAbove: 2 },
  );
  const types = (prev: SymbolState | null, cur: SymbolState) =>
    detectEvents(prev ? { AAPL: prev } : null, { AAPL: cur }, subs).map((e) => e.type);

  it("a crossing fires on the version that crosses, not while the value stays beyond the threshold", () => {
    assert.deepEqual(types(s(60), s(71)), ["iv_rank.crossed_above"]);
    assert.deepEqual(types(s(71), s(90)), []);
    assert.deepEqual(types(s(70), s(70)), [], "equal to the threshold is not above it");
    assert.deepEqual(types(s(35), s(29)), ["iv_rank.crossed_below"]);
    assert.deepEqual(types(s(29), s(10)), []);
    assert.deepEqual(types(s(null), s(90)), [], "no rank before: nothing crossed");
    assert.deepEqual(types(null, s(90)), [], "no earlier version");
  });

  it("a day's IV change beyond the threshold fires once, in either direction; a decision change fires on change", () => {
    assert.deepEqual(types(s(50, "trade", 1), s(50, "trade", -2.5)), ["iv.day_change_exceeded"]);
    assert.deepEqual(types(s(50, "trade", -2.5), s(50, "trade", -3)), []);
    assert.deepEqual(types(s(50, "trade"), s(50, "no_trade")), ["no_trade.decision_changed"]);
    const [e] = detectEvents({ AAPL: s(50, "trade") }, { AAPL: s(50, "caution") }, subs);
    assert.deepEqual([e.data.previousDecision, e.data.decision], ["trade", "caution"]);
  });

  it("only subscribed symbols and thresholds produce events", () => {
    assert.deepEqual(detectEvents({ MSFT: s(10, "trade") }, { MSFT: s(90, "no_trade") }, subs), []);
  });
});
