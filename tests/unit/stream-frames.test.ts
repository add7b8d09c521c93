/**
 * What the live stream sends (lib/api/stream/frames.ts): filters that take the same events share a key; a flow row
 * yields its one event to the streams whose type, symbol and premium filters take it, encoded once; a state row yields
 * each stream's own threshold crossings; a round's chunk for a sequence of frames is built once, and frames made out of
 * serial order are joined under their own serials.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Derivations, type Frame, isAfter, joinFrames, streamFilter } from "../../lib/api/stream/frames";
import { DISCLAIMER } from "../../lib/contract/disclaimer";
import { flowRow } from "../helpers/stream-parts";

const text = (b: Uint8Array) => new TextDecoder().decode(b);

test("filters that take the same events share a key (symbol order and repeats aside); others do not", () => {
  const a = streamFilter("test", { events: ["flow.block"], symbols: ["MSFT", "AAPL"] });
  const b = streamFilter("test", { events: ["flow.block"], symbols: ["AAPL", "MSFT", "AAPL"] });
  assert.equal(a.key, b.key);
  assert.notEqual(a.key, streamFilter("live", { events: ["flow.block"], symbols: ["AAPL", "MSFT"] }).key);
  assert.notEqual(
    a.key,
    streamFilter("test", { events: ["flow.block"], symbols: ["AAPL", "MSFT"], min_premium: 5 }).key,
  );
  assert.notEqual(a.key, streamFilter("test", { events: ["flow.block"] }).key);
});

test("a flow row: one SSE event, made once, for the streams whose type, symbol and premium filters take it", () => {
  const d = new Derivations();
  const row = flowRow(12);
  const all = streamFilter("test", { events: ["flow.block"] });
  const aapl = streamFilter("test", { events: ["flow.block"], symbols: ["AAPL"] });
  const [frame] = d.for(all, row);
  assert.equal(d.for(aapl, row)[0], frame, "encoded once");
  assert.deepEqual(d.for(streamFilter("test", { events: ["flow.block"], symbols: ["MSFT"] }), row), []);
  assert.deepEqual(d.for(streamFilter("test", { events: ["flow.sweep"] }), row), []);
  assert.deepEqual(d.for(streamFilter("test", { events: ["flow.block"], min_premium: 1001 }), row), []);
  assert.deepEqual([frame.id, frame.row, frame.index], ["12.0", 12, 0]);
  const [head, data] = text(frame.bytes).split("\ndata: ");
  assert.equal(head, "id: 12.0\nevent: flow.block");
  assert.ok(data.endsWith("\n\n"));
  const event = JSON.parse(data);
  assert.equal(event.timestamp, "2026-11-24T00:00:00.000Z");
  assert.deepEqual(
    [event.data.environment, event.data.isMockData, event.data.dataLabel, event.data.disclaimer],
    ["test", true, "demo", DISCLAIMER],
  );
});

test("a state row: each stream's own threshold crossings, numbered in a fixed order", () => {
  const d = new Derivations();
  const state = (ivRank: number, decision: string) => ({
    ivRank,
    ivDayChange: 0,
    atmIv30: 0.3,
    decision,
    asOf: "2026-11-24T00:00:00.000Z",
  });
  const row = flowRow(20, { kind: "state", payload: { prev: state(40, "trade"), cur: state(60, "no_trade") } });
  const at50 = d.for(streamFilter("test", { events: ["iv_rank.crossed_above"], iv_rank_above: 50 }), row);
  assert.deepEqual(
    at50.map((f) => f.id),
    ["20.0"],
  );
  assert.match(text(at50[0].bytes), /event: iv_rank\.crossed_above\n/);
  const at70 = d.for(streamFilter("test", { events: ["iv_rank.crossed_above"], iv_rank_above: 70 }), row);
  assert.deepEqual(at70, [], "70 was not crossed");
  const both = d.for(
    streamFilter("test", { events: ["iv_rank.crossed_above", "no_trade.decision_changed"], iv_rank_above: 50 }),
    row,
  );
  assert.deepEqual(
    both.map((f) => [f.id, text(f.bytes).split("\n")[1]]),
    [
      ["20.0", "event: iv_rank.crossed_above"],
      ["20.1", "event: no_trade.decision_changed"],
    ],
  );
});

test("a run: the same frame array for every stream with the same filter", () => {
  const d = new Derivations();
  const rows = [flowRow(1), flowRow(2, { symbol: "MSFT" })];
  const one = d.run(streamFilter("test", { events: ["flow.block"], symbols: ["AAPL", "MSFT"] }), rows);
  const two = d.run(streamFilter("test", { events: ["flow.block"], symbols: ["MSFT", "AAPL"] }), rows);
  assert.equal(one, two);
  assert.deepEqual(
    one.map((f) => f.id),
    ["1.0", "2.0"],
  );
});

test("joining: one frame is its own bytes; a sequence is joined once; out-of-order serials are joined by their own", () => {
  const f = (serial: number, s: string): Frame => ({
    serial,
    id: `${serial}.0`,
    row: serial,
    index: 0,
    bytes: new TextEncoder().encode(s),
  });
  const [a, b, c, d] = [f(0, "a"), f(1, "b"), f(2, "c"), f(3, "d")];
  const joined = new Map();
  assert.equal(joinFrames([a], joined), a.bytes);
  const abc = [a, b, c];
  const once = joinFrames(abc, joined);
  assert.equal(text(once), "abc");
  assert.equal(joinFrames(abc, joined), once, "by identity");
  assert.equal(joinFrames([a, b, c], joined), once, "by a run of serials");
  // Same count and span as a run from 0, but not consecutive: its own key.
  assert.equal(text(joinFrames([a, c, d], joined)), "acd");
  assert.equal(text(joinFrames([a, d, c], joined)), "adc");
});

test("positions: an event comes after a position by row, then by index", () => {
  assert.equal(isAfter({ row: 5, index: 1 }, 5, 2), true);
  assert.equal(isAfter({ row: 5, index: 1 }, 5, 1), false);
  assert.equal(isAfter({ row: 5, index: 1 }, 4, 9), false);
  assert.equal(isAfter({ row: 5, index: Number.MAX_SAFE_INTEGER }, 6, 0), true);
});
