/**
 * The live stream's metering (lib/api/stream/meter.ts) against a stand-in for admit_units: a stream's events of a round
 * are one call of that many units, named by the stream's request and first event; events sent on a budget are metered
 * in the background; events metered first are sent only when granted; a quota spent mid-round sends the granted ones
 * and ends the stream with `plan_limit_exceeded`; a metering failure sends nothing unmetered and ends with
 * `data_source_unavailable`; events waiting to be metered first wait for the background metering before them.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { UnitsCall, UnitsOutcome } from "../../lib/api/admit-units";
import type { ApiError } from "../../lib/api/errors";
import { Budgets } from "../../lib/api/stream/budget";
import type { Frame } from "../../lib/api/stream/frames";
import { STREAM_ENDPOINT_ID, StreamMeter } from "../../lib/api/stream/meter";
import { streamCaller as caller, until } from "../helpers/stream-parts";

interface Stream {
  caller: typeof caller;
  requestId: string;
  closed: boolean;
}

const frames = (row: number, n: number): Frame[] =>
  Array.from({ length: n }, (_, i) => ({ serial: i, id: `${row}.${i}`, row, index: i, bytes: new Uint8Array(1) }));

/** A meter whose admit_units grants what `grant` says, and records what was asked, sent and ended. */
function setup(grant: (c: UnitsCall) => number | Error = (c) => c.units) {
  const log = { calls: [] as UnitsCall[][], sent: [] as [string, string[]][], ended: [] as [string, ApiError][] };
  const admit = async (calls: readonly UnitsCall[]): Promise<UnitsOutcome[]> => {
    log.calls.push([...calls]);
    await new Promise((r) => setImmediate(r));
    return calls.map((c) => {
      const g = grant(c);
      if (g instanceof Error) throw g;
      return { granted: g, quotaUsed: 10 };
    });
  };
  const budgets = new Budgets();
  const meter = new StreamMeter<Stream>(admit, budgets, {
    send: (s, f) => log.sent.push([s.requestId, f.map((x) => x.id)]),
    end: (s, e) => {
      s.closed = true;
      log.ended.push([s.requestId, e]);
    },
  });
  const stream = (requestId: string): Stream => ({ caller, requestId, closed: false });
  return { log, meter, budgets, stream };
}

test("events metered first: one call per stream of its events' count; the granted are sent", async () => {
  const { log, meter, stream } = setup();
  const a = stream("req_a");
  const b = stream("req_b");
  await meter.first(
    [
      { s: a, frames: frames(7, 3) },
      { s: b, frames: frames(8, 1) },
    ],
    new Map(),
  );
  assert.equal(log.calls.length, 1, "one round trip");
  const [ca, cb] = log.calls[0];
  assert.deepEqual(
    { requestId: ca.requestId, units: ca.units, endpoint: ca.endpointId, key: ca.keyId, limit: ca.quota.limit },
    { requestId: "req_a:7.0+3", units: 3, endpoint: STREAM_ENDPOINT_ID, key: caller.keyId, limit: 1000 },
  );
  assert.equal(cb.requestId, "req_b:8.0+1");
  assert.deepEqual(log.sent, [
    ["req_a", ["7.0", "7.1", "7.2"]],
    ["req_b", ["8.0"]],
  ]);
  assert.deepEqual(log.ended, []);
});

test("a quota spent mid-round: the granted events are sent, then the stream ends with plan_limit_exceeded", async () => {
  const { log, meter, stream } = setup(() => 2);
  await meter.first([{ s: stream("req_a"), frames: frames(7, 5) }], new Map());
  assert.deepEqual(log.sent, [["req_a", ["7.0", "7.1"]]]);
  assert.equal(log.ended.length, 1);
  const [, error] = log.ended[0];
  assert.equal(error.code, "plan_limit_exceeded");
  assert.equal(error.message, "The Sandbox plan's daily quota of 1000 calls is spent.");
});

test("metering fails: nothing unmetered is sent and every waiting stream ends with data_source_unavailable", async () => {
  const { log, meter, stream } = setup(() => new Error("connection lost"));
  await meter.first([{ s: stream("req_a"), frames: frames(7, 1) }], new Map());
  assert.deepEqual(log.sent, []);
  assert.deepEqual(
    log.ended.map(([id, e]) => [id, e.code]),
    [["req_a", "data_source_unavailable"]],
  );
});

test("a stream closed before its turn is not metered", async () => {
  const { log, meter, stream } = setup();
  const gone = stream("req_gone");
  gone.closed = true;
  await meter.first([{ s: gone, frames: frames(7, 1) }], new Map());
  assert.equal(log.calls.length, 0);
});

test("events sent on a budget are metered in the background; a refusal then ends the stream without sending again", async () => {
  const { log, meter, budgets, stream } = setup((c) => (c.requestId.startsWith("req_b") ? 0 : c.units));
  budgets.seed(caller, 0, new Date());
  const a = stream("req_a");
  const b = stream("req_b");
  meter.sent({ s: a, frames: frames(7, 2) });
  meter.sent({ s: b, frames: frames(7, 2) });
  assert.equal(log.calls.length, 0, "not before this turn's writes");
  meter.flush();
  await until("the background metering", () => log.ended.length === 1);
  assert.deepEqual(
    log.calls[0].map((c) => c.requestId),
    ["req_a:7.0+2", "req_b:7.0+2"],
  );
  assert.deepEqual(log.sent, [], "sent already: the meter sends nothing");
  assert.equal(log.ended[0][0], "req_b");
  assert.equal(log.ended[0][1].code, "plan_limit_exceeded");
});

test("events metered first wait for the background metering of events sent before them", async () => {
  const { log, meter, stream } = setup();
  meter.sent({ s: stream("req_a"), frames: frames(7, 1) });
  meter.flush();
  await meter.first([{ s: stream("req_b"), frames: frames(8, 1) }], new Map());
  assert.deepEqual(
    log.calls.map((round) => round.map((c) => c.requestId)),
    [["req_a:7.0+1"], ["req_b:8.0+1"]],
  );
});
