/**
 * The live stream's row source (lib/api/stream/source.ts) against a stand-in for the postgres.js pool: a stream's
 * position is where the stored rows ended at start-up; a resuming stream's replay reads from its Last-Event-ID's row up
 * to that position within the retention; rounds read only the rows after the cursor, per key environment, and hand
 * each row on once; without LISTEN the source still polls and tries to listen again later; a failed start-up read is
 * reported to streams and read again on the next start; close stops the rounds.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type postgres from "postgres";
import type { StoredRow } from "../../lib/api/stream/frames";
import { StreamSource } from "../../lib/api/stream/source";
import { STREAM_EVENTS_CHANNEL } from "../../lib/engine/stream-events";
import { flowRow, until } from "../helpers/stream-parts";

/** Answers the source's statements from `stored`; records the values each statement was sent with. */
function fakePool(options: { listen?: "refuse"; start?: "fail" } = {}) {
  const state = {
    stored: [] as StoredRow[],
    starts: 0,
    polls: [] as unknown[][],
    replays: [] as unknown[][],
    listens: 0,
    startFails: options.start === "fail",
  };
  const run = async (strings: TemplateStringsArray, ...values: unknown[]) => {
    const text = strings.join("$");
    if (text.includes("coalesce(max(id)")) {
      state.starts++;
      if (state.startFails) throw new Error("connection refused");
      const max = (env: string) => Math.max(0, ...state.stored.filter((r) => r.env === env).map((r) => r.id));
      return [
        { env: "test", id: max("test") },
        { env: "live", id: max("live") },
      ];
    }
    if (text.includes("id >= ")) {
      state.replays.push(values);
      return state.stored.filter((r) => r.env === values[0] && r.id >= Number(values[1]) && r.id <= Number(values[2]));
    }
    if (text.includes("from stream_events")) {
      state.polls.push(values);
      const [test, live] = values.map(Number);
      return state.stored.filter((r) => (r.env === "test" ? r.id > test : r.id > live)).map((r) => ({ ...r }));
    }
    throw new Error(`unexpected statement: ${text}`);
  };
  Object.defineProperty(run, "options", { value: {} });
  const sql = Object.assign(run, {
    listen: async (channel: string) => {
      assert.equal(channel, STREAM_EVENTS_CHANNEL);
      state.listens++;
      if (options.listen === "refuse") throw new Error("LISTEN is not supported");
      return { unlisten: async () => {} };
    },
  });
  return { sql: sql as unknown as postgres.Sql, state };
}

test("a stream's position is where the rows ended at start-up; a replay reads from its row to there, within the retention", async () => {
  const { sql, state } = fakePool();
  state.stored.push(flowRow(3), flowRow(4, { env: "live" }), flowRow(5));
  const source = new StreamSource(sql, async () => {});
  source.start();
  try {
    assert.equal(await source.position("test"), 5);
    assert.equal(await source.position("live"), 4);
    const rows = await source.replay("test", { row: 3, index: 0 }, 5);
    assert.deepEqual(
      rows.map((r) => r.id),
      [3, 5],
    );
    const [env, from, upTo, since] = state.replays[0];
    assert.deepEqual([env, from, upTo], ["test", 3, 5]);
    const retainedMs = Date.now() - Date.parse(String(since));
    assert.ok(Math.abs(retainedMs - 48 * 3_600_000) < 60_000, `48 hours back, not ${retainedMs} ms`);
  } finally {
    source.close();
  }
});

test("without LISTEN the source polls: each new row is handed on once, per environment's cursor; LISTEN is tried again later", async () => {
  const { sql, state } = fakePool({ listen: "refuse" });
  state.stored.push(flowRow(1));
  const handed: number[] = [];
  const source = new StreamSource(sql, async (rows) => void handed.push(...rows.map((r) => r.id)), {
    pollMs: 10,
    listenRetryMs: 50,
  });
  source.start();
  try {
    await source.position("test");
    state.stored.push(flowRow(2), flowRow(3, { env: "live" }));
    await until("the new rows", () => handed.length === 2);
    state.stored.push(flowRow(4));
    await until("the next row", () => handed.length === 3);
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(handed, [2, 3, 4], "each row once, in order");
    assert.deepEqual(state.polls.at(-1)?.slice(0, 2).map(Number), [4, 3], "the cursor: newest test row 4, live row 3");
    await until("LISTEN tried again", () => state.listens >= 2, 2000);
  } finally {
    source.close();
  }
  const polls = state.polls.length;
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(state.polls.length, polls, "closed: no more rounds");
});

test("a failed start-up read fails the streams waiting on it; the next start reads again", async () => {
  const { sql, state } = fakePool({ start: "fail" });
  const source = new StreamSource(sql, async () => {});
  source.start();
  try {
    await assert.rejects(source.position("test"));
    assert.equal(source.started, false);
    state.startFails = false;
    source.start();
    assert.equal(await source.position("test"), 0);
    assert.equal(state.starts, 2);
    assert.equal(source.started, true);
  } finally {
    source.close();
  }
});
