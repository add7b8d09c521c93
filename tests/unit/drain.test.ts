import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer, request, type Server } from "node:http";
import { createAdaptorServer } from "@hono/node-server";
import { drainServer, listenerWith, trackCalls, trackConnections } from "../../lib/server/drain";
import { failingParts, reportStoreOutcome } from "../../lib/db/store-status";

/** A server whose every call waits on `answer()`, drained as the standalone server is. */
async function serverWith(answer: () => Promise<Response>) {
  const calls = trackCalls();
  const connections = trackConnections();
  const server = createAdaptorServer({
    fetch: () => calls.track(answer()),
    createServer: ((options: object, listener: Parameters<typeof createServer>[1]) =>
      createServer(options, listenerWith(connections, listener as never))) as never,
  }) as Server;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const drain = (answerBy: number) => drainServer(server, connections, (by) => calls.settle(by), answerBy);
  return { drain, calls, port: (server.address() as { port: number }).port };
}

function get(port: number) {
  return new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
    const req = request({ port, host: "127.0.0.1", path: "/", agent: false }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

test("a call in flight when the drain starts is answered, with Connection: close, and new connections are refused", async () => {
  const { drain, port } = await serverWith(
    () => new Promise((r) => setTimeout(() => r(Response.json({ ok: true })), 300)),
  );
  const inFlight = get(port);
  await new Promise((r) => setTimeout(r, 50));
  const drained = drain(Date.now() + 5000);
  const answer = await inFlight;
  assert.equal(answer.status, 200);
  assert.equal(answer.connection, "close");
  await drained;
  await assert.rejects(get(port), /ECONNREFUSED/);
});

test("a call still in flight when the grace runs out gets a 503, not a reset", async () => {
  const { drain, calls, port } = await serverWith(() => new Promise<Response>(() => {}));
  const inFlight = get(port);
  await new Promise((r) => setTimeout(r, 50));
  const started = Date.now();
  await drain(Date.now() + 200);
  const answer = await inFlight;
  assert.ok(Date.now() - started < 2000);
  assert.equal(answer.status, 503);
  assert.equal(JSON.parse(answer.body).error.code, "data_source_unavailable");
  assert.equal(calls.inFlight, 0);
});

test("a store failure counts for health for a few seconds, and a success clears it", () => {
  const pool = {};
  reportStoreOutcome(pool, "admission", false, 1000);
  assert.deepEqual(failingParts(pool, 2000), ["admission"]);
  assert.deepEqual(failingParts(pool, 7000), [], "an old failure no longer counts");
  reportStoreOutcome(pool, "admission", true, 2500);
  assert.deepEqual(failingParts(pool, 3000), []);
  assert.deepEqual(failingParts({}, 3000), [], "another pool has its own state");
});

test("settle is over only once no call was in flight at two polls in a row: a call tracked between them is answered", async () => {
  const calls = trackCalls();
  const settled = calls.settle(Date.now() + 5000);
  // Nothing in flight at the first poll; a call arrives before the second (a request that was still unread).
  await new Promise((r) => setTimeout(r, 5));
  let answered = false;
  const late = calls.track(new Promise((r) => setTimeout(() => r(Response.json({ ok: true })), 60)));
  void late.then(() => (answered = true));
  await settled;
  assert.ok(answered, "settle waited for the call that came after its first poll");
  const answer = await late;
  assert.equal(answer.status, 200, "the late call got its own answer, not the drain's 503");
  assert.equal(calls.inFlight, 0);
});
