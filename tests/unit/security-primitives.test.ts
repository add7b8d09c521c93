/** The reusable security pieces: bounded body reading, JSON depth, same-origin redirects, the client address. */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  BodyError,
  jsonDepth,
  parseBoundedJson,
  readBoundedJson,
  readBoundedText,
  withBoundedBody,
} from "../../lib/http/bounded-body";
import { sameOriginPath } from "../../lib/security/redirect";
import { clientAddressFrom, PEER_HEADER, trustedProxies } from "../../lib/security/client-address";

/** A body that streams `total` bytes in 64 kB chunks and counts how many the reader pulled. */
function endless(total: number) {
  let sent = 0;
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled: () => sent };
}

const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
  new Request("http://x.test/p", { method: "POST", body, headers, duplex: "half" } as RequestInit);

describe("bounded body", () => {
  it("refuses a declared Content-Length over the limit before reading a byte", async () => {
    const { stream, pulled } = endless(200 * 1024 * 1024);
    const req = post(stream, { "content-length": String(200 * 1024 * 1024) });
    await assert.rejects(readBoundedText(req, 64 * 1024), (e) => e instanceof BodyError && e.status === 413);
    assert.ok(pulled() <= 64 * 1024, `pulled ${pulled()}`);
  });

  it("cuts an undeclared 200 MB stream just past the limit (memory stays flat)", async () => {
    const { stream, pulled } = endless(200 * 1024 * 1024);
    const before = process.memoryUsage().rss;
    await assert.rejects(readBoundedText(post(stream), 64 * 1024), (e) => e instanceof BodyError && e.status === 413);
    assert.ok(pulled() <= 3 * 64 * 1024, `pulled ${pulled()} bytes`);
    assert.ok(process.memoryUsage().rss - before < 10 * 1024 * 1024);
  });

  it("refuses a malformed Content-Length with 400", async () => {
    await assert.rejects(readBoundedText(post("{}", { "content-length": "1e9" }), 1024), (e) => {
      return e instanceof BodyError && e.status === 400;
    });
  });

  it("refuses JSON nested deeper than the limit without parsing it, and bad JSON with 400", async () => {
    const deep = '{"a":'.repeat(30_000) + "1" + "}".repeat(30_000);
    assert.ok(jsonDepth(deep, 64) > 64);
    assert.throws(
      () => parseBoundedJson(deep),
      (e) => e instanceof BodyError && e.status === 400,
    );
    assert.throws(() => parseBoundedJson("[".repeat(65) + "]".repeat(65)), BodyError);
    assert.deepEqual(parseBoundedJson('{"s":"[[[[{{{{\\"","n":[[1]]}'), { s: '[[[[{{{{"', n: [[1]] });
    assert.throws(
      () => parseBoundedJson("{nope"),
      (e) => e instanceof BodyError && e.status === 400,
    );
    assert.deepEqual(await readBoundedJson(post("")), {});
  });

  it("gives a handler the same bytes, buffered, when they fit", async () => {
    const req = await withBoundedBody(
      post("email=a%40b.c&password=x", { "content-type": "x-www-form-urlencoded" }),
      1024,
    );
    assert.equal(await req.text(), "email=a%40b.c&password=x");
    assert.equal(req.headers.get("content-type"), "x-www-form-urlencoded");
    await assert.rejects(
      withBoundedBody(post("x".repeat(2048)), 1024),
      (e) => e instanceof BodyError && e.status === 413,
    );
  });
});

describe("same-origin redirects", () => {
  it("keeps same-origin paths", () => {
    assert.equal(sameOriginPath("/dashboard/keys?x=1#k"), "/dashboard/keys?x=1#k");
    assert.equal(sameOriginPath("/terms", "http://127.0.0.1:3600"), "/terms");
  });
  it("refuses every form that leaves the site", () => {
    for (const bad of [
      "/\\127.0.0.1:3291/x",
      "/\t/127.0.0.1:3291/x",
      "/%09/127.0.0.1/x",
      "//evil.example/x",
      "\\\\evil.example",
      "https://evil.example/",
      "http://portal.invalid/x",
      "javascript:alert(1)",
      " /\\evil.example",
      "",
      undefined,
    ]) {
      const got = sameOriginPath(bad, "http://127.0.0.1:3600");
      assert.ok(
        got === "/dashboard" || new URL(got, "http://127.0.0.1:3600").host === "127.0.0.1:3600",
        `${bad} → ${got}`,
      );
      assert.ok(!got.startsWith("//") && !got.startsWith("/\\"), `${bad} → ${got}`);
    }
    assert.equal(sameOriginPath("/\\127.0.0.1:3291/x"), "/dashboard");
    assert.equal(sameOriginPath("//evil.example/x"), "/dashboard");
  });
});

describe("client address", () => {
  const h = (o: Record<string, string>) => new Headers(o);
  it("uses the socket address by default and ignores forged X-Forwarded-For / X-Real-IP", () => {
    assert.equal(trustedProxies({}), 0);
    const headers = h({ [PEER_HEADER]: "198.51.100.7", "x-forwarded-for": "203.0.113.9", "x-real-ip": "203.0.113.9" });
    assert.equal(clientAddressFrom(headers, 0), "198.51.100.7");
    assert.equal(clientAddressFrom(h({ "x-forwarded-for": "203.0.113.9" }), 0), undefined);
    assert.equal(clientAddressFrom(h({ [PEER_HEADER]: "::ffff:198.51.100.7" }), 0), "198.51.100.7");
  });
  it("with N trusted proxies takes the address N hops back, whatever the client prepends", () => {
    const headers = h({ [PEER_HEADER]: "10.0.0.2", "x-forwarded-for": "6.6.6.6, 192.0.2.10" });
    assert.equal(clientAddressFrom(headers, 1), "192.0.2.10");
    assert.equal(
      clientAddressFrom(h({ [PEER_HEADER]: "10.0.0.2", "x-forwarded-for": "192.0.2.10, 10.0.0.1" }), 2),
      "192.0.2.10",
    );
    assert.equal(clientAddressFrom(h({ [PEER_HEADER]: "10.0.0.2", "x-forwarded-for": "not-an-ip" }), 1), undefined);
    assert.equal(trustedProxies({ TRUSTED_PROXIES: "2" }), 2);
    assert.equal(trustedProxies({ TRUSTED_PROXIES: "-1" }), 0);
  });
});

describe("peer stamp", () => {
  it("overwrites a forged peer header with the socket's address on every request", async () => {
    const { installPeerStamp } = await import("../../lib/security/peer-stamp");
    const http = await import("node:http");
    installPeerStamp();
    const server = http.createServer((req, res) => res.end(String(req.headers[PEER_HEADER])));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as { port: number };
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`, { headers: { [PEER_HEADER]: "203.0.113.66" } });
      assert.equal(await res.text(), "127.0.0.1");
    } finally {
      server.close();
    }
  });
});

describe("origin check against APP_URL", () => {
  it("compares the full origin and ignores X-Forwarded-Host", async () => {
    const { sameOriginRequest } = await import("../../lib/security/origin");
    const req = (headers: Record<string, string>) =>
      new Request("http://internal:3000/api/portal/x", { method: "POST", headers });
    const app = "https://portal.example";
    assert.equal(sameOriginRequest(req({ origin: "https://portal.example" }), app), true);
    assert.equal(sameOriginRequest(req({ origin: "http://portal.example" }), app), false);
    assert.equal(sameOriginRequest(req({ origin: "https://portal.example:8443" }), app), false);
    assert.equal(
      sameOriginRequest(
        req({ origin: "https://evil.example", "x-forwarded-host": "evil.example", host: "evil.example" }),
        app,
      ),
      false,
    );
    assert.equal(sameOriginRequest(req({ "sec-fetch-site": "same-origin" }), app), true);
    assert.equal(
      sameOriginRequest(req({ origin: "https://evil.example", "sec-fetch-site": "same-origin" }), app),
      false,
    );
    assert.equal(sameOriginRequest(req({}), app), false);
    assert.equal(sameOriginRequest(req({ origin: "https://portal.example" }), "not a url"), false);
  });

  it("without APP_URL only this machine's loopback origins on PORT pass", async () => {
    const { portalOrigins, sameOriginRequest } = await import("../../lib/security/origin");
    assert.deepEqual(portalOrigins({ APP_URL: "https://portal.example/app/", PORT: 3000 }), ["https://portal.example"]);
    const local = portalOrigins({ PORT: 3000 });
    const req = (origin: string) => new Request("http://x/api/portal/x", { method: "POST", headers: { origin } });
    for (const ok of ["http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000"])
      assert.equal(sameOriginRequest(req(ok), local), true, ok);
    for (const bad of ["https://localhost:3000", "http://localhost:3001", "http://evil.example:3000"])
      assert.equal(sameOriginRequest(req(bad), local), false, bad);
  });
});
