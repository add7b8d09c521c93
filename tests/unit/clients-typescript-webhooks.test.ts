/** verifyWebhook against the published `standardwebhooks` package as the reference signer, and the retry timing rules. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { verifyWebhook, WebhookVerificationError } from "../../clients/typescript/src/index";
import { parseRetryAfter, retryDelayMs } from "../../clients/typescript/src/retry";

const secret = () => `whsec_${randomBytes(24).toString("base64")}`;
const body = JSON.stringify({ type: "webhook.test", timestamp: "2026-11-23T00:00:00.000Z", data: { ok: true } });

function signed(s: string, at = new Date(), id = "msg_0123456789abcdef01234567") {
  const signature = new Webhook(s).sign(id, at, body);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signature,
  };
}

test("accepts what the reference library signs, from a Headers object or a plain record, and returns the event", async () => {
  const s = secret();
  const h = signed(s);
  assert.deepEqual(await verifyWebhook(body, h, s), JSON.parse(body));
  assert.deepEqual(await verifyWebhook(new TextEncoder().encode(body), new Headers(h), s), JSON.parse(body));
});

test("during a rotation either of two secrets verifies; two signatures in the header are both tried", async () => {
  const [a, b] = [secret(), secret()];
  const both = {
    ...signed(a),
    "webhook-signature": `${signed(b)["webhook-signature"]} ${signed(a)["webhook-signature"]}`,
  };
  assert.ok(await verifyWebhook(body, both, [secret(), a]));
  assert.ok(await verifyWebhook(body, signed(b), [a, b]));
});

test("rejects a tampered body, a wrong secret, an old or future timestamp and missing headers", async () => {
  const s = secret();
  const h = signed(s);
  const reject = (p: Promise<unknown>, re: RegExp) =>
    assert.rejects(p, (e) => e instanceof WebhookVerificationError && re.test(e.message));
  await reject(verifyWebhook(body.replace("true", "false"), h, s), /No signature matches/);
  await reject(verifyWebhook(body, h, secret()), /No signature matches/);
  await reject(verifyWebhook(body, signed(s, new Date(Date.now() - 301_000)), s), /too old/);
  await reject(verifyWebhook(body, signed(s, new Date(Date.now() + 301_000)), s), /too old or too new/);
  await reject(verifyWebhook(body, { "webhook-id": h["webhook-id"] }, s), /Missing/);
  assert.ok(await verifyWebhook(body, signed(s, new Date(Date.now() - 299_000)), s), "inside the 5 minutes");
  assert.ok(await verifyWebhook(body, signed(s, new Date(0)), s, { now: new Date(100_000) }), "tolerance from `now`");
});

test("backoff grows exponentially with jitter, capped; Retry-After wins when given", () => {
  assert.equal(
    retryDelayMs(1, null, () => 0),
    250,
  );
  assert.equal(
    retryDelayMs(1, null, () => 1),
    500,
  );
  assert.equal(
    retryDelayMs(3, null, () => 1),
    2000,
  );
  assert.equal(
    retryDelayMs(20, null, () => 1),
    8000,
    "capped",
  );
  assert.equal(
    retryDelayMs(1, 7, () => 0),
    7000,
    "never sooner than Retry-After",
  );
  assert.ok(retryDelayMs(1, 7, () => 0.99) < 7250);
  assert.equal(parseRetryAfter("12"), 12);
  assert.equal(parseRetryAfter(new Date(10_000).toUTCString(), 0), 10);
  assert.equal(parseRetryAfter(null), null);
  assert.equal(parseRetryAfter("soon"), null);
});
