/** The webhooks page's `webhooks listen` command: the user's own origin, test webhooks' events and symbols, test key. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { LISTEN_DEFAULT_EVENTS, listenCommand } from "../../lib/shared/listen-command";
import { checkForwardTarget, checkListenKey, deliveryFor } from "../../lib/domain/webhook-listen";
import { Webhook } from "standardwebhooks";

test("the command carries the account's own values; live webhooks and iv_* events are left out", () => {
  const cmd = listenCommand({
    origin: "http://localhost:3000",
    keyPrefix: "svc_test_ab12",
    webhooks: [
      {
        environment: "test",
        events: ["no_trade.decision_changed", "iv_rank.crossed_above"],
        symbols: ["SPY"],
        status: "active",
      },
      { environment: "live", events: ["iv.day_change_exceeded"], symbols: ["TSLA"], status: "active" },
    ],
  });
  assert.equal(
    cmd,
    [
      "npm run -s cli -- webhooks listen",
      "--forward-to http://localhost:4242/webhooks",
      "--events no_trade.decision_changed",
      "--symbols SPY",
      "--key svc_test_ab12…",
      "--api-url http://localhost:3000",
    ].join(" \\\n  "),
  );
});

test("without test webhooks or a test key the defaults show", () => {
  const cmd = listenCommand({ origin: "https://api.example.com", keyPrefix: null, webhooks: [] });
  assert.match(cmd, new RegExp(`--events ${LISTEN_DEFAULT_EVENTS.join(",")}`));
  assert.match(cmd, /--key svc_test_… \\\n {2}--api-url https:\/\/api\.example\.com$/);
  assert.doesNotMatch(cmd, /--symbols/);
});

test("forward targets are this machine only; live keys are refused", () => {
  for (const ok of ["http://localhost:4242/x", "http://127.0.0.1:1/x", "https://[::1]:8443/"]) checkForwardTarget(ok);
  for (const bad of ["http://example.com/x", "ftp://localhost/x", "http://10.0.0.1/x", "localhost:4242"])
    assert.throws(() => checkForwardTarget(bad), /--forward-to/);
  assert.throws(() => checkListenKey("svc_live_abc"), /test key/);
  assert.throws(() => checkListenKey("svc_sk_live_abc"), /test key/);
  checkListenKey("svc_test_abc");
});

test("a forwarded delivery verifies with standardwebhooks and carries the webhook body shape", () => {
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  const d = deliveryFor(
    { id: "12.0", type: "flow.block", symbol: "AAPL", timestamp: "2026-11-27T08:00:00.000Z", data: { premium: 1 } },
    secret,
  );
  const payload = new Webhook(secret).verify(d.body, d.headers) as { type: string; data: { symbol: string } };
  assert.equal(payload.type, "flow.block");
  assert.equal(payload.data.symbol, "AAPL");
  assert.equal(d.headers["webhook-id"], "msg_listen_12.0");
});
