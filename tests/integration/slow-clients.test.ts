/**
 * Issue 30 item 6: the slow-client guard (lib/security/slow-clients.ts), installed as instrumentation.ts installs it
 * under `next start`, here with short limits on a real http.Server on loopback, driven by raw sockets: trickled headers
 * and bodies are cut at their limits, idle half-open connections are capped per client, and normal requests (a body
 * sent at once, keep-alive) pass.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { IN_FLIGHT_CAPS } from "../../lib/security/request-shed";
import { idleConnections, installSlowClientGuard } from "../../lib/security/slow-clients";

const LIMITS = { headersMs: 800, bodyMs: 1_500, idlePerClient: 3, graceMs: 300 };
let server: http.Server;
let port: number;
/** Password-reset completions the server's own request listener saw. */
let resetsSeen = 0;

const RESET_PATH = "/api/portal/password-reset/complete";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function open(): Promise<{ socket: Socket; closed: Promise<number>; data: () => string }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let data = "";
    const socket = connect(port, "127.0.0.1", () => resolve({ socket, closed, data: () => data }));
    socket.on("data", (d) => (data += d));
    socket.on("error", () => {});
    const closed = new Promise<number>((r) => socket.once("close", () => r(Date.now() - started)));
    socket.once("error", reject);
  });
}

/** Writes `text` one character every `everyMs` until the socket closes or `text` runs out. */
async function trickle(socket: Socket, text: string, everyMs: number): Promise<void> {
  for (const ch of text) {
    if (socket.destroyed) return;
    socket.write(ch);
    await sleep(everyMs);
  }
}

describe("slow clients", () => {
  before(async () => {
    installSlowClientGuard(LIMITS);
    server = http.createServer(async (req, res) => {
      if (req.url === RESET_PATH) {
        resetsSeen++;
        await sleep(300);
      }
      let body = "";
      try {
        for await (const chunk of req) body += chunk;
      } catch {
        return; // the guard cut the connection mid-body
      }
      res.end(`ok ${body.length}`);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it("cuts trickled headers at the headers limit", async () => {
    const c = await open();
    void trickle(c.socket, `GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ${"a".repeat(200)}\r\n\r\n`, 50);
    const ms = await c.closed;
    assert.ok(ms >= LIMITS.headersMs - 50 && ms < LIMITS.headersMs + 1_000, `closed after ${ms} ms`);
    assert.equal(c.data(), "", "nothing was answered");
  });

  it("cuts a trickled body at the body limit, and serves a body sent at once", async () => {
    const c = await open();
    c.socket.write("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n");
    void trickle(c.socket, "b".repeat(100), 50);
    const ms = await c.closed;
    assert.ok(ms >= LIMITS.bodyMs - 50 && ms < LIMITS.bodyMs + 1_000, `closed after ${ms} ms`);
    const ok = await open();
    ok.socket.write(`POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello`);
    await ok.closed;
    assert.match(ok.data(), /^HTTP\/1\.1 200[\s\S]*ok 5$/);
  });

  it("after a keep-alive answer, the next request's headers are held to the same limit", async () => {
    const c = await open();
    c.socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    await sleep(100);
    assert.match(c.data(), /^HTTP\/1\.1 200/);
    void trickle(c.socket, `GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ${"a".repeat(200)}\r\n\r\n`, 50);
    const ms = await c.closed;
    assert.ok(ms < 100 + LIMITS.headersMs + 1_000, `closed after ${ms} ms`);
  });

  it("caps idle half-open connections per client address", async () => {
    const conns = await Promise.all(Array.from({ length: 3 * LIMITS.idlePerClient }, open));
    await sleep(LIMITS.graceMs + 200);
    const alive = conns.filter((c) => !c.socket.destroyed && c.socket.readyState === "open");
    assert.equal(alive.length, LIMITS.idlePerClient, `${alive.length} idle connections stayed open`);
    assert.equal(idleConnections("127.0.0.1"), LIMITS.idlePerClient);
    // A client at its cap still gets served when it sends a whole request at once.
    const fresh = await open();
    fresh.socket.write("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    await fresh.closed;
    assert.match(fresh.data(), /^HTTP\/1\.1 200/);
    for (const c of conns) c.socket.destroy();
    await Promise.all(conns.map((c) => c.closed));
    assert.equal(idleConnections("127.0.0.1"), 0);
  });

  it("sheds past the in-flight cap before the server's own listener sees the request (request-shed)", async () => {
    const cap = IN_FLIGHT_CAPS.find((c) => c.path === RESET_PATH);
    assert.ok(cap);
    resetsSeen = 0;
    const post = () =>
      fetch(`http://127.0.0.1:${port}${RESET_PATH}`, { method: "POST", body: "{}" }).then(async (r) => ({
        status: r.status,
        body: await r.text(),
      }));
    const answers = await Promise.all(Array.from({ length: cap.max + 2 }, post));
    const shed = answers.filter((a) => a.status === 429);
    assert.equal(shed.length, 2, JSON.stringify(answers.map((a) => a.status)));
    assert.equal(resetsSeen, cap.max, "the shed requests never reached the server's listener");
    assert.match(shed[0].body, /"code"/);
  });
});
