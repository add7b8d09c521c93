/**
 * The TypeScript client's stream over real HTTP to a loopback server that misbehaves as networks do: it stops sending
 * (after an event, after its headers, or before answering at all), keeps a quiet connection alive with heartbeats, or
 * ends the stream with an error event. Checks `readTimeoutMs` (silence while a byte is awaited, not while the caller
 * handles an event) and `maxReconnects` (consecutive failures; a connection that delivers resets the count), and that
 * every reconnection resumes with Last-Event-ID. No API server or database: the server below scripts each connection.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "../../clients/typescript/src/index";
import { expectApiError } from "../helpers/client-errors";

/** What the server does with connection number `n` (1-based). */
type Script = (n: number, req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let baseUrl = "";
let script: Script = () => {};
let seen: { lastEventId: string | null; userAgent: string | null }[] = [];
const open = new Set<ServerResponse>();

before(async () => {
  server = createServer((req, res) => {
    seen.push({
      lastEventId: (req.headers["last-event-id"] as string | undefined) ?? null,
      userAgent: req.headers["user-agent"] ?? null,
    });
    open.add(res);
    res.on("close", () => open.delete(res));
    script(seen.length, req, res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Load fetch's HTTP stack once, so the short read timeouts below time the server, not a cold start.
  script = (_n, _req, res) => res.end();
  await (await fetch(baseUrl)).text();
});
after(async () => {
  for (const res of open) res.destroy();
  await new Promise((r) => server.close(r));
});

function reset(next: Script) {
  for (const res of open) res.destroy();
  seen = [];
  script = next;
}

const sse = (res: ServerResponse) =>
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", "x-request-id": "req_sse" });
const event = (res: ServerResponse, id: string, premium: number) =>
  res.write(
    `id: ${id}\nevent: flow.block\ndata: ${JSON.stringify({ id, type: "flow.block", symbol: "AAPL", timestamp: "2026-11-20T15:00:00Z", data: { premium } })}\n\n`,
  );

/** The number of the event after the request's Last-Event-ID (`e<k>`), as the service resumes after it. */
const nextAfter = (req: IncomingMessage) => Number(String(req.headers["last-event-id"] ?? "e0").slice(1)) + 1;

const api = () => createClient({ apiKey: "svc_test_stream", baseUrl });

async function until(cond: () => boolean, ms = 5_000): Promise<void> {
  for (const end = Date.now() + ms; !cond(); await new Promise((r) => setTimeout(r, 10)))
    if (Date.now() > end) assert.fail(`not within ${ms} ms: ${cond}`);
}

async function drain(it: AsyncIterable<{ id: string }>, into: string[], stopAt = Infinity): Promise<void> {
  for await (const ev of it) {
    into.push(ev.id);
    if (into.length >= stopAt) return;
  }
}

describe("TypeScript client stream: read timeout and reconnects", () => {
  it("a connection that stops sending after an event is reopened with Last-Event-ID after readTimeoutMs", async () => {
    reset((_n, req, res) => {
      sse(res);
      const next = nextAfter(req);
      event(res, `e${next}`, next * 100_000); // the event after Last-Event-ID, then silence, the connection held open
    });
    const got: string[] = [];
    const started = Date.now();
    await drain(api().openStream({ events: "flow.block" }, { readTimeoutMs: 300 }), got, 3);
    assert.deepEqual(got, ["e1", "e2", "e3"], "none missed or twice");
    assert.ok(seen.length >= 3);
    assert.deepEqual(
      seen.slice(0, 3).map((s) => s.lastEventId),
      [null, "e1", "e2"],
    );
    assert.ok(Date.now() - started >= 600, "each reconnection waited for the read timeout");
    assert.match(seen[0].userAgent ?? "", /^options-research-typescript\/\d+\.\d+\.\d+/, "the stream sends the UA");
  });

  it("heartbeats keep a quiet connection open, and a caller slow to take an event does not time it out", async () => {
    reset((_n, _req, res) => {
      sse(res);
      let beats = 0;
      const t = setInterval(() => {
        res.write(": heartbeat\n\n");
        if (++beats === 10) {
          clearInterval(t);
          event(res, "late", 1);
          event(res, "later", 2); // then silence
        }
      }, 100);
      res.on("close", () => clearInterval(t));
    });
    const got: string[] = [];
    for await (const ev of api().openStream({ events: "flow.block" }, { readTimeoutMs: 600 })) {
      got.push(ev.id);
      if (got.length === 2) break;
      await new Promise((r) => setTimeout(r, 1_000)); // longer than the read timeout; "later" is already on its way
    }
    assert.deepEqual(got, ["late", "later"]);
    assert.equal(seen.length, 1, "no reconnection");
  });

  it("a silent connection is a failure: after maxReconnects failed reconnections the timeout is thrown", async () => {
    reset((n, _req, res) => {
      if (n % 2 === 1) sse(res); // headers, then nothing; even connections are never even answered
    });
    const err = await expectApiError(
      api().openStream({ events: "flow.block" }, { readTimeoutMs: 100, maxReconnects: 2 }).next(),
      0,
      "timeout",
    );
    assert.match(err.message, /No byte from http:\/\/127\.0\.0\.1:\d+ for 100 ms/);
    assert.equal(seen.length, 3, "the first connection and two reconnections");
  });

  it("a connection that delivers resets the count: one event per connection goes on past maxReconnects", async () => {
    reset((_n, req, res) => {
      sse(res);
      const next = nextAfter(req);
      event(res, `e${next}`, next);
      res.end(); // a dropped connection after each event
    });
    const got: string[] = [];
    await drain(api().openStream({ events: "flow.block" }, { maxReconnects: 1 }), got, 4);
    assert.deepEqual(got, ["e1", "e2", "e3", "e4"]);
    assert.deepEqual(
      seen.map((s) => s.lastEventId),
      [null, "e1", "e2", "e3"],
    );
  });

  it("a connection closed without any event counts as a failure; maxReconnects: 0 gives up at once", async () => {
    reset((_n, _req, res) => {
      sse(res);
      res.end();
    });
    await expectApiError(
      api().openStream({ events: "flow.block" }, { maxReconnects: 0 }).next(),
      0,
      "connection_error",
    );
    assert.equal(seen.length, 1);
  });

  it("a final error event ends the stream, whatever its code; slow_consumer reconnects after the last event", async () => {
    const final = (code: string) => (n: number, _req: IncomingMessage, res: ServerResponse) => {
      sse(res);
      if (n === 1) event(res, "f1", 1);
      const body = { error: { code: n === 1 ? "slow_consumer" : code, message: "scripted" }, isMockData: true };
      res.end(`event: error\ndata: ${JSON.stringify(body)}\n\n`);
    };
    for (const [code, status] of [
      ["plan_limit_exceeded", 403],
      ["some_future_code", 0],
    ] as const) {
      reset(final(code));
      const got: string[] = [];
      const err = await expectApiError(drain(api().openStream({ events: "flow.block" }), got), status, code);
      assert.equal(err.requestId, "req_sse");
      assert.deepEqual(got, ["f1"]);
      assert.deepEqual(
        seen.map((s) => s.lastEventId),
        [null, "f1"],
        `${code}: one reconnection (after slow_consumer), none after the final error`,
      );
    }
  });

  it("aborting the signal during a silent wait ends the loop without an error and closes the connection", async () => {
    reset((_n, _req, res) => sse(res));
    const ac = new AbortController();
    const it = api().openStream({ events: "flow.block" }, { signal: ac.signal, readTimeoutMs: 10_000 });
    const next = it.next();
    await until(() => open.size === 1); // the server holds the connection, silent
    ac.abort();
    assert.deepEqual(await next, { done: true, value: undefined });
    assert.equal(seen.length, 1);
    await until(() => open.size === 0); // the client closed it
  });
});
