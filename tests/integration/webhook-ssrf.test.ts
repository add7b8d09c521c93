/**
 * SSRF rules on real sockets: every refused address class at registration and at delivery (after DNS resolution,
 * on the address connected to), a hostname that resolves to a private address, and a redirect that is not followed.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { checkWebhookUrl } from "../../lib/domain/webhook-targets";
import { refusedRange } from "../../lib/webhooks/address-policy";
import { sendAttempt } from "../../lib/webhooks/send";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

const REFUSED: [string, string][] = [
  ["10.1.2.3", "private"],
  ["172.16.0.1", "private"],
  ["192.168.1.1", "private"],
  ["127.0.0.1", "loopback"],
  ["127.255.0.9", "loopback"],
  ["0.0.0.0", "unspecified"],
  ["169.254.169.254", "linkLocal"], // cloud metadata (AWS, GCP, Azure)
  ["100.64.0.1", "carrierGradeNat"],
  ["100.100.100.200", "carrierGradeNat"], // CGNAT, Alibaba metadata
  ["224.0.0.1", "multicast"],
  ["255.255.255.255", "broadcast"],
  ["192.0.0.192", "reserved"],
  ["::1", "loopback"],
  ["::", "unspecified"],
  ["fe80::1", "linkLocal"],
  ["fd00:ec2::254", "uniqueLocal"], // AWS IPv6 metadata
  ["fc00::1", "uniqueLocal"],
  ["ff02::1", "multicast"],
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:10.0.0.1", "private"],
  ["::ffff:169.254.169.254", "linkLocal"], // IPv4-mapped
  ["64:ff9b::a00:1", "rfc6052"],
  ["2002:a00:1::", "6to4"],
  ["2001::1", "teredo"], // tunnels that could reach private space
];
const ALLOWED = ["93.184.215.14", "8.8.8.8", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "::ffff:8.8.8.8"];

describe("webhook SSRF rules", () => {
  let target: Receiver;
  before(async () => {
    target = await startReceiver();
  });
  after(async () => {
    await target.close();
  });

  it("refuses every private, loopback, link-local, CGNAT, metadata and tunnelling range, IPv4 and IPv6", () => {
    for (const [address, range] of REFUSED) assert.equal(refusedRange(address), range, address);
    for (const address of ALLOWED) assert.equal(refusedRange(address), null, address);
  });

  it("registration: https only in production, http only with private targets allowed, and no refused literal or resolved address", async () => {
    const strict = { allowPrivate: false, production: true };
    for (const [address] of REFUSED) {
      const host = address.includes(":") ? `[${address}]` : address;
      assert.match((await checkWebhookUrl(`https://${host}/hook`, strict))!, /^refused/, address);
    }
    assert.match(
      (await checkWebhookUrl("https://localhost/hook", strict))!,
      /localhost resolves to a loopback address/,
    );
    const resolver = async (h: string) =>
      h === "internal.example.com" ? ["203.0.113.9", "10.0.0.7"] : ["93.184.215.14"];
    assert.match(
      (await checkWebhookUrl("https://internal.example.com/x", { ...strict, resolver }))!,
      /private/,
      "any resolved address refused is enough",
    );
    assert.equal(await checkWebhookUrl("https://public.example.com/x", { ...strict, resolver }), null);
    assert.match((await checkWebhookUrl("http://public.example.com/x", { ...strict, resolver }))!, /https/);
    assert.match(
      (await checkWebhookUrl("http://public.example.com/x", { allowPrivate: true, production: true }))!,
      /https/,
      "never http in production",
    );
    assert.equal(
      await checkWebhookUrl("http://127.0.0.1:9/x", { allowPrivate: true, production: false }),
      null,
      "development with the flag",
    );
    assert.match(
      (await checkWebhookUrl("https://user:pw@public.example.com/x", { ...strict, resolver }))!,
      /credentials/,
    );
  });

  it("delivery: a literal refused address is never connected to", async () => {
    const port = new URL(target.url).port;
    for (const host of ["127.0.0.1", "[::1]", "[::ffff:127.0.0.1]"]) {
      const r = await sendAttempt(`http://${host}:${port}/hook`, {}, "{}", { allowPrivate: false });
      assert.equal(r.error, "refused_address", host);
      assert.equal(r.statusCode, null);
    }
    assert.equal(target.received.length, 0);
  });

  it("delivery: a hostname resolving to a private address is refused after resolution (real DNS and a rebinding resolver)", async () => {
    const port = new URL(target.url).port;
    const viaDns = await sendAttempt(`http://localhost:${port}/hook`, {}, "{}", { allowPrivate: false });
    assert.equal(viaDns.error, "refused_address");
    // A name that looked public at registration and now resolves to loopback (DNS rebinding): refused at connect time.
    for (const address of ["127.0.0.1", "169.254.169.254", "::ffff:127.0.0.1", "10.0.0.1"]) {
      const r = await sendAttempt(`http://rebind.example.com:${port}/hook`, {}, "{}", {
        allowPrivate: false,
        resolver: async () => [address],
      });
      assert.equal(r.error, "refused_address", address);
    }
    assert.equal(target.received.length, 0, "the loopback receiver was never reached");
    const allowed = await sendAttempt(`http://localhost:${port}/hook`, {}, "{}", { allowPrivate: true });
    assert.equal(allowed.statusCode, 204, "the same target is reachable when private targets are allowed");
    target.received.length = 0;
  });

  it("delivery in production: a plain http URL is refused even with private targets allowed", async () => {
    const r = await sendAttempt(target.url, {}, "{}", { allowPrivate: true, httpsOnly: true });
    assert.equal(r.error, "refused_address");
    assert.equal(target.received.length, 0);
  });

  it("a redirect is not followed, even to an allowed address: the attempt fails with the 3xx", async () => {
    // The redirect points at a loopback receiver; the client never follows it, so that receiver sees nothing.
    const redirector = await startReceiver([], () => ({ status: 307, location: target.url }));
    try {
      const r = await sendAttempt(redirector.url, {}, "{}", { allowPrivate: true });
      assert.equal(r.ok, false);
      assert.equal(r.statusCode, 307);
      assert.equal(r.error, "redirect");
      assert.equal(redirector.received.length, 1);
      assert.equal(target.received.length, 0);
    } finally {
      await redirector.close();
    }
  });

  it("reads at most 4 kB of an answer and gives up on a receiver that never answers", async () => {
    const big = await startReceiver([], () => ({ status: 200, body: "x".repeat(1_000_000) }));
    const silent = await startReceiver([], () => "hang");
    try {
      const r = await sendAttempt(big.url, {}, "{}", { allowPrivate: true });
      assert.equal(r.ok, true);
      assert.equal(r.excerpt!.length, 512);
      const s = await sendAttempt(silent.url, {}, "{}", { allowPrivate: true, timeoutMs: 300 });
      assert.equal(s.error, "timeout");
      assert.equal(s.statusCode, null);
    } finally {
      await big.close();
      await silent.close();
    }
  });
});
