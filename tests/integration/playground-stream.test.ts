/**
 * The playground's live stream (lib/server/playground-stream.ts) through the real in-process gateway: the events pass
 * through as they come; one stream per portal user (a newer one ends the older with `playground.end`); a time limit;
 * the browser going away frees the gateway's per-key slot; a refusal comes back as an ordinary playground answer.
 */
import { after, before, beforeEach, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { accountWithKey } from "../helpers/accounts";
import { startGateway, type Gateway } from "../../lib/server/gateway";
import type { PlaygroundCredential } from "../../lib/domain/playground";
import { openPlaygroundStream } from "../../lib/server/playground-stream";
import type { PlaygroundResponse } from "../../lib/portal/playground-call";
import { STREAM_OPERATION } from "../../lib/portal/stream-list";
import { allRoutes } from "../../lib/api/routes";
import { streamBaselineStored } from "../helpers/sse";

process.env.AUTH_SECRET ??= "integration-test-secret-0123456789";
process.env.DEMO_TICKER = "off";
process.env.LOG_LEVEL = "warn";

let t: TestDatabase;
let gateway: Gateway;
const request = { operation: STREAM_OPERATION, params: {}, query: { events: "flow.sweep,flow.block" } };

/** Reads the body until `until` appears in the text or the stream ends; the text read so far. */
async function readUntil(
  body: ReadableStream<Uint8Array>,
  until: string,
  ms = 10_000,
): Promise<{ text: string; done: boolean }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + ms;
  try {
    while (Date.now() < deadline) {
      const next = await Promise.race([
        reader.read(),
        new Promise<"timeout">((r) => setTimeout(() => r("timeout"), deadline - Date.now())),
      ]);
      if (next === "timeout") break;
      if (next.done) return { text, done: true };
      text += decoder.decode(next.value, { stream: true });
      if (text.includes(until)) return { text, done: false };
    }
    return { text, done: false };
  } finally {
    reader.releaseLock();
  }
}

// Until the stream route (openStream) is merged there is nothing to proxy: the suite says so instead of failing.
const streamMissing = allRoutes.some((r) => r.id === STREAM_OPERATION)
  ? false
  : "GET /api/v1/stream is not in this tree";

describe("playground stream", { skip: streamMissing }, () => {
  /** Each test its own account's test key, by id (a test key has Sandbox's limits: 100 calls a day, 2 streams at once). */
  let key: () => Promise<PlaygroundCredential>;
  before(async () => {
    t = await createSeededTestDatabase("playground_stream", { seed: "options-research-demo-v1", now: new Date() });
    gateway = await startGateway({ databaseUrl: t.url, poolMax: 4, demoTicker: false });
    await streamBaselineStored(t.sql); // else the first streams are sent a session's flow, spending the 100 calls
  });
  beforeEach(async () => {
    const { keyId } = await accountWithKey(t.db);
    key = async () => ({ keyId });
  });
  after(async () => {
    await gateway?.close();
    await t?.drop();
  });

  const open = async (user: string, signal = new AbortController().signal, minutes?: number) => {
    const res = await openPlaygroundStream(gateway, "http://portal.test", request, key, user, signal, minutes);
    assert.ok(res instanceof Response, `the stream opened: ${JSON.stringify(res)}`);
    assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
    assert.match(res.headers.get("cache-control") ?? "", /no-transform/);
    return res.body as ReadableStream<Uint8Array>;
  };

  it("passes the stream on; a newer stream of the same user ends the older with the portal's reason", async () => {
    const first = await open("user-1");
    assert.match((await readUntil(first, "stream open")).text, /: stream open/);
    const second = await open("user-1");
    const ended = await readUntil(first, "\n\n");
    assert.match(ended.text, /event: playground\.end\ndata: \{"reason":"You opened another stream/);
    assert.equal((await readUntil(first, "never")).done, true);
    await second.cancel();
  });

  it("closes after the time limit, and each closed stream frees the key's slot (Sandbox: 2 at once)", async () => {
    for (let i = 0; i < 3; i++) {
      const body = await open(`user-limit-${i}`, undefined, 0.005); // 300 ms
      const r = await readUntil(body, "playground.end", 5_000);
      assert.match(r.text.slice(-600), /Closed after 0\.005 minutes/, `the stream's end (done: ${r.done})`);
    }
  });

  it("the browser going away (abort or cancel) frees the slot too", async () => {
    for (let i = 0; i < 3; i++) {
      const ac = new AbortController();
      const body = await open(`user-abort-${i}`, ac.signal);
      await readUntil(body, "stream open");
      if (i % 2) ac.abort();
      else await body.cancel();
    }
    // Two open at once are allowed, a third is refused by the gateway (429) and shown as an answer.
    const a = await open("user-a");
    const b = await open("user-b");
    const refused = (await openPlaygroundStream(
      gateway,
      "http://portal.test",
      request,
      key,
      "user-c",
      new AbortController().signal,
    )) as PlaygroundResponse;
    assert.equal(refused.status, 429);
    assert.equal((refused.body as { error: { code: string } }).error.code, "rate_limit_exceeded");
    await a.cancel();
    await b.cancel();
  });

  it("a filter the gateway refuses comes back as a playground answer", async () => {
    const res = (await openPlaygroundStream(
      gateway,
      "http://portal.test",
      { ...request, query: { events: "no.such_event" } },
      key,
      "user-bad",
      new AbortController().signal,
    )) as PlaygroundResponse;
    assert.equal(res.status, 400);
    assert.equal((res.body as { error: { code: string } }).error.code, "invalid_request");
    assert.equal(res.path, "/api/v1/stream?events=no.such_event");
  });
});
