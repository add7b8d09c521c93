/**
 * The open streams and what is written to them (lib/api/stream/fan-out.ts): a stream opens with a comment; a round's
 * frames go as one chunk and move its position; an ended stream gets one final `error` event in family B's shape and
 * frees its lease once; a client that leaves is forgotten without one; a reader too far behind is ended with
 * `slow_consumer`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ApiError } from "../../lib/api/errors";
import { FanOut, type Subscriber } from "../../lib/api/stream/fan-out";
import type { Frame } from "../../lib/api/stream/frames";
import { streamFilter } from "../../lib/api/stream/frames";
import { STREAM_MAX_UNREAD_BYTES } from "../../lib/contract/stream";
import { streamCaller as caller } from "../helpers/stream-parts";

const subscriber = (id: number): Subscriber => ({
  id,
  env: "test",
  caller,
  lease: { id, keyId: caller.keyId },
  requestId: `req_${id}`,
  filter: streamFilter("test", { events: ["flow.block"] }),
  after: { row: 0, index: -1 },
  catchingUp: null,
  controller: null,
  closed: false,
  recheck: () => caller,
  allowed: () => null,
  delivered: 0,
});

const frame = (row: number, text: string): Frame => ({
  serial: row,
  id: `${row}.0`,
  row,
  index: 0,
  bytes: new TextEncoder().encode(text),
});

/** Opens `s` on `fanOut`; answers what its client has been sent so far (read without delay unless `unread`). */
function open(fanOut: FanOut, s: Subscriber, unread = false) {
  const got = { text: "", done: false };
  const body = new ReadableStream<Uint8Array>(
    { start: (c) => fanOut.add(s, c), cancel: () => fanOut.drop(s) },
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  );
  const reader = body.getReader();
  if (!unread)
    void (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return void (got.done = true);
        got.text += new TextDecoder().decode(value);
      }
    })();
  return { got, reader };
}
const turn = () => new Promise((r) => setImmediate(r));

test("a round's frames go as one chunk and move the stream's position; the end is one error event, the lease freed once", async () => {
  const dropped: number[] = [];
  const fanOut = new FanOut((s) => dropped.push(s.lease.id));
  const s = subscriber(1);
  const { got } = open(fanOut, s);
  try {
    fanOut.send(s, [frame(3, "id: 3.0\n\n"), frame(4, "id: 4.0\n\n")], new Map());
    assert.deepEqual(s.after, { row: 4, index: 0 });
    assert.equal(s.delivered, 2);
    fanOut.end(s, new ApiError("inactive_key", "This API key or its account is deactivated."));
    fanOut.end(s, new ApiError("internal_error", "again"));
    fanOut.send(s, [frame(5, "id: 5.0\n\n")], new Map());
    await turn();
    const opening = ": stream open\n\nid: 3.0\n\nid: 4.0\n\nevent: error\ndata: ";
    assert.ok(got.text.startsWith(opening), got.text);
    const body = JSON.parse(got.text.slice(opening.length));
    assert.equal(body.error.code, "inactive_key");
    assert.equal(got.text.match(/event: error/g)?.length, 1, "one final event");
    assert.ok(got.done, "the body ends");
    assert.deepEqual(dropped, [1]);
    assert.equal(fanOut.size, 0);
  } finally {
    fanOut.close(new ApiError("data_source_unavailable", "closing"));
  }
});

test("a client that leaves is forgotten without an error event; endAll ends only the streams it picks", async () => {
  const dropped: number[] = [];
  const fanOut = new FanOut((s) => dropped.push(s.lease.id));
  const [a, b, c] = [subscriber(1), subscriber(2), subscriber(3)];
  const { reader } = open(fanOut, a);
  const bSent = open(fanOut, b).got;
  open(fanOut, c);
  try {
    await reader.cancel();
    assert.deepEqual(dropped, [1]);
    fanOut.endAll(new ApiError("data_source_unavailable", "lapsed"), (s) => s.id === 2);
    assert.deepEqual(dropped, [1, 2]);
    assert.deepEqual([a.closed, b.closed, c.closed], [true, true, false]);
    await turn();
    assert.match(bSent.text, /event: error\ndata: \{"error":\{"code":"data_source_unavailable"/);
  } finally {
    fanOut.close(new ApiError("data_source_unavailable", "closing"));
  }
  assert.deepEqual(dropped, [1, 2, 3]);
});

test("a reader more than STREAM_MAX_UNREAD_BYTES behind is ended with slow_consumer", async () => {
  const fanOut = new FanOut(() => {});
  const s = subscriber(1);
  const { reader } = open(fanOut, s, true);
  const big = new Uint8Array(STREAM_MAX_UNREAD_BYTES + 64 * 1024 + 1);
  fanOut.send(s, [{ ...frame(1, ""), bytes: big }], new Map());
  assert.equal(s.closed, true);
  let last = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value.length < big.length) last = new TextDecoder().decode(value);
  }
  assert.match(last, /^event: error\ndata: \{"error":\{"code":"slow_consumer"/);
});
