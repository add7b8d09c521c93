/**
 * Test webhooks on a loopback server (the embedded default) may target this machine, over http too; live webhooks
 * never, and nothing else private opens up. Registration (checkWebhookUrl) and delivery (sendAttempt, a real server).
 */
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { checkWebhookUrl } from "../../lib/domain/webhook-targets";
import { sendAttempt } from "../../lib/webhooks/send";

const loopbackServer = { allowPrivate: false, production: true, testLoopback: true };

test("registration: a test webhook may target loopback http on a loopback server; a live one never", async () => {
  for (const url of [
    "http://localhost:4242/webhooks",
    "http://127.0.0.1:9/x",
    "https://[::1]:8443/x",
    "http://a.localhost/x",
  ])
    assert.equal(await checkWebhookUrl(url, loopbackServer, "test"), null, url);
  for (const url of ["http://localhost:4242/webhooks", "http://127.0.0.1:9/x", "https://127.0.0.1:9/x"])
    assert.match((await checkWebhookUrl(url, loopbackServer, "live")) ?? "", /https|refused/, url);
  const publicServer = { ...loopbackServer, testLoopback: false };
  assert.match((await checkWebhookUrl("http://localhost:4242/x", publicServer, "test")) ?? "", /https/);
  assert.match((await checkWebhookUrl("https://127.0.0.1:9/x", publicServer, "test")) ?? "", /^refused: /);
  for (const url of ["http://10.0.0.1/x", "http://169.254.169.254/latest", "https://10.0.0.1/x"])
    assert.notEqual(await checkWebhookUrl(url, loopbackServer, "test"), null, url);
  assert.equal(await checkWebhookUrl("http://u:p@localhost/x", loopbackServer, "test"), "must not carry credentials");
});

test("delivery: allowLoopback reaches a loopback receiver over http even https-only; without it the address is refused", async () => {
  const server = http.createServer((_req, res) => res.writeHead(204).end());
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const named = url.replace("127.0.0.1", "localhost");
  try {
    const ok = await sendAttempt(url, {}, "{}", { allowPrivate: false, httpsOnly: true, allowLoopback: true });
    assert.equal(ok.statusCode, 204);
    const byName = await sendAttempt(named, {}, "{}", {
      allowPrivate: false,
      httpsOnly: true,
      allowLoopback: true,
      resolver: async () => ["127.0.0.1"],
    });
    assert.equal(byName.statusCode, 204);
    const refused = await sendAttempt(url, {}, "{}", { allowPrivate: false, httpsOnly: false });
    assert.equal(refused.error, "refused_address");
    const live = await sendAttempt(url, {}, "{}", { allowPrivate: false, httpsOnly: true });
    assert.equal(live.error, "refused_address");
    // A name on a loopback allowance that resolves elsewhere private is still refused at connection.
    // (Another name than above: a kept-alive socket to an allowed address is reused by name, without a lookup.)
    const rebound = await sendAttempt(named.replace("localhost", "rebound.localhost"), {}, "{}", {
      allowPrivate: false,
      allowLoopback: true,
      resolver: async () => ["10.0.0.7"],
    });
    assert.equal(rebound.error, "refused_address");
  } finally {
    server.close();
  }
});
