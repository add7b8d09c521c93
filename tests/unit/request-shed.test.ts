import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { heldRefusals, type InFlightCap, inFlightOf, shedRequest } from "../../lib/security/request-shed";

const cap: InFlightCap = {
  method: "POST",
  path: "/reset",
  max: 2,
  message: "Busy; try again in a moment.",
  holdMs: 0,
  errorHoldMs: 0,
};
const holding: InFlightCap = { ...cap, path: "/held", holdMs: 400 };
const longHold: InFlightCap = { ...cap, path: "/long", max: 0, holdMs: 10_000 };
// Long enough that a loaded machine still reads the held place before it is given back.
const failing: InFlightCap = { ...cap, path: "/failing", max: 1, errorHoldMs: 1000 };
/** When the server last finished an answer, taken before shedRequest's own "finish" listener starts the hold. */
let lastFinishAt = 0;

/** A server whose /reset answers only when `open()` is called; everything passes through shedRequest first. */
async function server() {
  const waiting: (() => void)[] = [];
  const s = http.createServer((req, res) => {
    res.once("finish", () => {
      lastFinishAt = performance.now();
    });
    if (shedRequest(req, res, [cap, holding, longHold, failing])) return;
    req.resume();
    if (req.url === "/failing") {
      res.statusCode = Number(req.headers["x-status"] ?? 400);
      res.end();
      return;
    }
    waiting.push(() => res.end("done"));
  });
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  const open = () => {
    for (const answer of waiting.splice(0)) answer();
  };
  return { s, base, open, waiting };
}

const post = (base: string, path = "/reset") =>
  fetch(`${base}${path}`, { method: "POST", body: JSON.stringify({ token: "x".repeat(5000) }) });

test("past the cap a request is answered 429 at once, with Retry-After, the security headers and the error shape", async () => {
  const { s, base, open, waiting } = await server();
  try {
    const held = [post(base), post(base)];
    while (waiting.length < 2) await new Promise((r) => setTimeout(r, 5));
    assert.equal(inFlightOf(cap), 2);
    const refused = await post(base);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get("retry-after"), "1");
    assert.equal(refused.headers.get("x-content-type-options"), "nosniff");
    assert.equal(refused.headers.get("content-security-policy"), "default-src 'none'; frame-ancestors 'none'");
    assert.match(refused.headers.get("x-request-id") ?? "", /^req_[0-9a-f]{32}$/);
    assert.deepEqual(await refused.json(), { error: { code: "rate_limited", message: cap.message } });
    // Other routes and methods are not counted.
    const other = post(base, "/other");
    while (waiting.length < 3) await new Promise((r) => setTimeout(r, 5));
    open();
    assert.deepEqual(await Promise.all([...held, other].map((r) => r.then((x) => x.status))), [200, 200, 200]);
    // The held ones are done: the count is back to zero and the next request goes through.
    while (inFlightOf(cap) > 0) await new Promise((r) => setTimeout(r, 5));
    const next = post(base);
    while (waiting.length < 1) await new Promise((r) => setTimeout(r, 5));
    open();
    assert.equal((await next).status, 200);
  } finally {
    s.closeAllConnections();
    s.close();
  }
});

test("a client that goes away before the answer frees its place", async () => {
  const { s, base, open, waiting } = await server();
  try {
    const controller = new AbortController();
    const gone = fetch(`${base}/reset`, { method: "POST", body: "{}", signal: controller.signal }).catch(() => null);
    while (waiting.length < 1) await new Promise((r) => setTimeout(r, 5));
    assert.equal(inFlightOf(cap), 1);
    controller.abort();
    await gone;
    while (inFlightOf(cap) > 0) await new Promise((r) => setTimeout(r, 5));
    open();
  } finally {
    s.closeAllConnections();
    s.close();
  }
});

test("a refusal is held for the cap's hold before it is sent, so a flood that resends at once is slowed to it", async () => {
  const { s, base, open, waiting } = await server();
  try {
    const held = [post(base, "/held"), post(base, "/held")];
    while (waiting.length < 2) await new Promise((r) => setTimeout(r, 5));
    const sent = performance.now();
    const refused = post(base, "/held");
    while (heldRefusals() < 1) await new Promise((r) => setTimeout(r, 5));
    const res = await refused;
    assert.ok(performance.now() - sent >= holding.holdMs - 5, "the refusal was not held");
    assert.equal(res.status, 429);
    assert.equal(res.headers.get("retry-after"), "1");
    assert.equal(heldRefusals(), 0);
    // A client that leaves while its refusal is held is let go at once.
    const controller = new AbortController();
    const gone = fetch(`${base}/long`, { method: "POST", body: "{}", signal: controller.signal }).catch(() => null);
    while (heldRefusals() < 1) await new Promise((r) => setTimeout(r, 5));
    const left = performance.now();
    controller.abort();
    await gone;
    while (heldRefusals() > 0) await new Promise((r) => setTimeout(r, 5));
    assert.ok(performance.now() - left < longHold.holdMs / 2, "the held refusal outlived its client");
    open();
    assert.deepEqual(await Promise.all(held.map((r) => r.then((x) => x.status))), [200, 200]);
  } finally {
    s.closeAllConnections();
    s.close();
  }
});

test("a request answered 400 keeps its place for the error hold: failures reach the app at a bounded rate", async () => {
  const { s, base } = await server();
  try {
    assert.equal((await post(base, "/failing")).status, 400);
    // Measured from the server's end of the answer, not the client's receipt of it (later on a loaded machine).
    const answeredAt = lastFinishAt;
    assert.equal(inFlightOf(failing), 1, "the failed request still holds its place");
    assert.equal((await post(base, "/failing")).status, 429, "the next one is refused while it does");
    while (inFlightOf(failing) > 0) await new Promise((r) => setTimeout(r, 5));
    const held = performance.now() - answeredAt;
    assert.ok(held >= failing.errorHoldMs - 2, `the place was given back after ${held.toFixed(1)} ms`);
    // A success, or another refusal (a cross-origin 403), frees its place at once: the next one goes in.
    for (const status of [200, 403]) {
      const other = await fetch(`${base}/failing`, {
        method: "POST",
        headers: { "x-status": String(status) },
        body: "{}",
      });
      assert.equal(other.status, status);
      while (inFlightOf(failing) > 0) await new Promise((r) => setTimeout(r, 1));
    }
    const burst = [];
    for (let i = 0; i < 3; i++)
      burst.push(
        (await fetch(`${base}/failing`, { method: "POST", headers: { "x-status": "403" }, body: "{}" })).status,
      );
    assert.deepEqual(burst, [403, 403, 403], "403s one after another are never refused for a held place");
    assert.equal((await post(base, "/failing")).status, 400);
    while (inFlightOf(failing) > 0) await new Promise((r) => setTimeout(r, 5));
  } finally {
    s.closeAllConnections();
    s.close();
  }
});
