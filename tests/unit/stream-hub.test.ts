/**
 * The stream hub's wake-up (lib/api/stream/hub.ts, lib/api/stream/source.ts) against a stand-in for the postgres.js pool: the producer's
 * notification starts a round at once (not at the next 100 ms poll), a notification during a round is followed by
 * another round, a renewed pool is listened on again, and closing stops listening; and streams whose filters overlap
 * are each sent their own rows' bytes (the round's shared buffers are keyed right).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type postgres from "postgres";
import { StreamHub } from "../../lib/api/stream/hub";
import type { StoredRow } from "../../lib/api/stream/frames";
import { STREAM_EVENTS_CHANNEL } from "../../lib/engine/stream-events";
import { DISCLAIMER } from "../../lib/contract/disclaimer";
import { streamCaller as caller, flowRow, until } from "../helpers/stream-parts";

/** Answers the hub's statements from memory and records what it asked. */
function fakePool() {
  const state = {
    options: {} as object,
    stored: [] as StoredRow[],
    polls: 0,
    metered: 0,
    listens: [] as { channel: string; pool: object; notify: () => void; unlistened: boolean }[],
    /** Holds the next poll until released. */
    hold: null as Promise<void> | null,
  };
  const run = async (strings: TemplateStringsArray, ...values: unknown[]) => {
    const text = strings.join("$");
    if (text.includes("coalesce(max(id)")) return [{ env: "test", id: 0 }];
    if (text.includes("admit_units")) {
      const units = String(values[5]).slice(1, -1).split(",").map(Number);
      state.metered += units.reduce((a, b) => a + b, 0);
      return units.map((n) => ({ granted: n, quota_used: n }));
    }
    if (text.includes("stream_leases")) return []; // a lease's delete when its stream ends
    if (text.includes("from stream_events")) {
      state.polls++;
      if (state.hold) await state.hold;
      const after = Number(values[0]);
      return state.stored.filter((r) => r.id > after);
    }
    throw new Error(`unexpected statement: ${text}`);
  };
  // The driver's `options` is the current pool's (a getter: a renewed pool answers a new object).
  Object.defineProperty(run, "options", { get: () => state.options });
  const sql = Object.assign(run, {
    listen: async (channel: string, notify: () => void) => {
      const entry = { channel, pool: state.options, notify, unlistened: false };
      state.listens.push(entry);
      return {
        unlisten: async () => {
          entry.unlistened = true;
        },
      };
    },
  });
  return { sql: sql as unknown as postgres.Sql, state };
}

const turn = () => new Promise((r) => setImmediate(r));

test("a notification starts a round at once; one during a round is followed by another; a renewed pool is listened on again", async () => {
  const { sql, state } = fakePool();
  const hub = new StreamHub(sql);
  hub.seedBudget(caller, 0, new Date());
  const body = hub.body({
    caller,
    lease: { id: 1, keyId: caller.keyId }, // the slot the route takes in stream_leases (tested in stream-leases.test.ts)
    query: { events: ["flow.block"], symbols: ["AAPL"] },
    requestId: "req_1",
    after: null,
    recheck: () => caller,
    allowed: () => null,
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      text += decoder.decode(value);
    }
  })();
  try {
    await until("the hub to listen", () => state.listens.length === 1);
    assert.equal(state.listens[0].channel, STREAM_EVENTS_CHANNEL);
    await new Promise((r) => setTimeout(r, 150)); // attached (its cursor read)

    // The notification reads the new rows at once (the statement is sent before notify() returns), not at a timed poll.
    state.stored.push(flowRow(1));
    const before = state.polls;
    state.listens[0].notify();
    assert.equal(state.polls, before + 1, "a round started on the notification");
    await until("the event", () => text.includes("id: 1.0\n"));
    assert.match(text, /event: flow\.block\ndata: \{"id":"1\.0"/);
    assert.ok(text.includes(DISCLAIMER));

    // A notification while a round waits on the database: the hub reads again as soon as that round ends.
    // The hold is set only after the earlier round's last turn, so a timed poll that starts meanwhile is not held.
    await turn();
    let release = () => {};
    state.hold = new Promise<void>((r) => {
      release = r;
    });
    const held = state.polls;
    state.listens[0].notify();
    assert.equal(state.polls, held + 1, "the held round");
    state.stored.push(flowRow(2));
    state.listens[0].notify();
    assert.equal(state.polls, held + 1, "no second round while one runs");
    state.hold = null;
    release();
    await until("the round after it", () => state.polls >= held + 2);
    await until("the second event", () => text.includes("id: 2.0\n"));

    await until("the events metered", () => state.metered === 2);

    // The pool renewed after a lost connection: its new listening connection is opened at the next poll.
    state.options = {};
    await until("listening on the renewed pool", () => state.listens.length === 2, 2500);
    assert.equal(state.listens[1].pool, state.options);
    state.stored.push(flowRow(3));
    const renewed = state.polls;
    state.listens[1].notify();
    assert.equal(state.polls, renewed + 1);
    await until("the event after the renewal", () => text.includes("id: 3.0\n"));
  } finally {
    hub.close();
  }
  assert.ok(state.listens[1].unlistened, "closing the hub stops listening");
  await until("the closing error event", () =>
    /event: error\ndata: \{"error":\{"code":"data_source_unavailable"/.test(text),
  );
});

test("streams with different filters in one round each get their own rows' bytes, whatever the order frames were made in", async () => {
  const { sql, state } = fakePool();
  const hub = new StreamHub(sql);
  hub.seedBudget(caller, 0, new Date());
  let leases = 0;
  const open = (symbols: string[]) => {
    const reader = hub
      .body({
        caller,
        lease: { id: ++leases, keyId: caller.keyId },
        query: { events: ["flow.block"], symbols },
        requestId: `req_${symbols.join("_")}`,
        after: null,
        recheck: () => caller,
        allowed: () => null,
      })
      .getReader();
    const got = { text: "" };
    void (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        got.text += new TextDecoder().decode(value);
      }
    })();
    return got;
  };
  const row = (id: number, symbol: string): StoredRow => ({
    ...flowRow(id),
    symbol,
    payload: { id: `f${id}`, symbol },
  });
  // The first stream's events are made first (rows 1, 2, 4); the second's middle one (row 3) after its last (row 4):
  // its frames are not a run of consecutive serials, though their count equals the span of their first and last.
  const w = open(["AAPL", "MSFT"]);
  const y = open(["AAPL", "NVDA"]);
  try {
    await until("the hub to listen", () => state.listens.length === 1);
    await new Promise((r) => setTimeout(r, 150));
    state.stored.push(row(1, "AAPL"), row(2, "MSFT"), row(3, "NVDA"), row(4, "AAPL"));
    state.listens[0].notify();
    const ids = (t: string) => [...t.matchAll(/^id: (.+)$/gm)].map((m) => m[1]);
    await until("both streams' events", () => ids(w.text).length === 3 && ids(y.text).length === 3);
    assert.deepEqual(ids(w.text), ["1.0", "2.0", "4.0"]);
    assert.deepEqual(ids(y.text), ["1.0", "3.0", "4.0"]);
  } finally {
    hub.close();
  }
});
