import { test } from "node:test";
import assert from "node:assert/strict";
import { defaultField, fieldLabel, fieldSummary, formatValue, historySeries } from "../../lib/portal/history-series";
import {
  arrivalNote,
  prependItems,
  streamCallsOn,
  streamParser,
  type StreamItem,
  type StreamMessage,
} from "../../lib/portal/stream-list";

const envelope = (data: unknown) => ({ data, disclaimer: "d", isMockData: true, dataLabel: "demo", timestamp: "t" });

test("a getHistory answer gives its numeric columns in order and one row per day, ascending, nulls kept", () => {
  const s = historySeries(
    envelope({
      symbol: "AAPL",
      from: "2026-11-02",
      to: "2026-11-04",
      columns: ["price", "iv_rank", "sentiment", "failed_checks", "sweep_count"],
      count: 3,
      rows: [
        {
          date: "2026-11-04",
          data_label: "demo",
          as_of: "x",
          price: 190.5,
          iv_rank: 41.2,
          sentiment: "bullish",
          failed_checks: [],
          sweep_count: null,
        },
        {
          date: "2026-11-02",
          data_label: "demo",
          as_of: "x",
          price: 188,
          iv_rank: null,
          sentiment: "neutral",
          failed_checks: ["a"],
          sweep_count: null,
        },
        {
          date: "2026-11-03",
          data_label: "demo",
          as_of: "x",
          price: 189.25,
          iv_rank: 39,
          sentiment: "bearish",
          failed_checks: [],
          sweep_count: null,
        },
      ],
    }),
  );
  assert.ok(s);
  assert.equal(s.symbol, "AAPL");
  // sentiment and failed_checks are text; sweep_count has no number on any day.
  assert.deepEqual(s.fields, ["price", "iv_rank"]);
  assert.deepEqual(s.rows, [
    { date: "2026-11-02", price: 188, iv_rank: null },
    { date: "2026-11-03", price: 189.25, iv_rank: 39 },
    { date: "2026-11-04", price: 190.5, iv_rank: 41.2 },
  ]);
  assert.equal(defaultField(s.fields), "iv_rank");
  assert.deepEqual(fieldSummary(s.rows, "iv_rank"), {
    days: 2,
    min: 39,
    max: 41.2,
    last: 41.2,
    lastDate: "2026-11-04",
  });
  assert.deepEqual(fieldSummary(s.rows, "price"), {
    days: 3,
    min: 188,
    max: 190.5,
    last: 190.5,
    lastDate: "2026-11-04",
  });
});

test("a getHistoryDay answer is a series of one day; an empty range has no rows; errors and CSV are not series", () => {
  const day = historySeries(
    envelope({
      date: "2026-11-03",
      data_label: "demo",
      as_of: "x",
      price: 189.25,
      risk_level: "low",
      component_liquidity: 0.5,
    }),
  );
  assert.ok(day);
  assert.deepEqual(day.fields, ["price", "component_liquidity"]);
  assert.equal(day.rows.length, 1);
  const empty = historySeries(envelope({ symbol: "AAPL", from: "a", to: "b", columns: ["price"], count: 0, rows: [] }));
  assert.deepEqual(empty, { symbol: "AAPL", fields: [], rows: [] });
  assert.equal(historySeries({ error: { code: "invalid_request", message: "m" }, data: null }), null);
  assert.equal(historySeries("# disclaimer\ndate,price\n"), null);
  assert.equal(historySeries(envelope({ symbol: "AAPL", price: 1 })), null);
  assert.equal(defaultField([]), null);
  assert.equal(defaultField(["skew_25d", "term_slope"]), "skew_25d");
});

test("labels and values read as words and numbers", () => {
  assert.equal(fieldLabel("atm_iv_30d"), "ATM IV (30 d)");
  assert.equal(fieldLabel("component_trend50d"), "Component trend50d");
  assert.equal(fieldLabel("something_new"), "something_new");
  assert.equal(formatValue(1234.567891), "1,234.5679");
  assert.equal(formatValue(0.25), "0.25");
  assert.equal(formatValue(null), "–");
  assert.equal(fieldSummary([{ date: "d", price: null }], "price"), null);
});

const item = (id: string): StreamItem => ({ id, type: "flow.sweep", symbol: "AAPL", timestamp: "t", data: null });

test("the live list puts the newest first, drops an id seen already and keeps at most the cap", () => {
  let list: StreamItem[] = [];
  list = prependItems(list, [item("1.0"), item("2.0")], 3);
  assert.deepEqual(
    list.map((i) => i.id),
    ["2.0", "1.0"],
  );
  list = prependItems(list, [item("2.0"), item("3.0"), item("4.0")], 3);
  assert.deepEqual(
    list.map((i) => i.id),
    ["4.0", "3.0", "2.0"],
  );
  assert.equal(prependItems(list, [item("4.0")], 3), list);
  assert.equal(arrivalNote(0, 3), "");
  assert.equal(arrivalNote(1, 3), "1 new event; 3 in the list.");
  assert.equal(arrivalNote(2, 5), "2 new events; 5 in the list.");
});

test("the stream parser reads events split across chunks, heartbeats, the final error and the portal's end", () => {
  const got: StreamMessage[] = [];
  const p = streamParser((m) => got.push(m));
  const ev = {
    id: "12.0",
    type: "flow.block",
    symbol: "MSFT",
    timestamp: "2026-11-24T02:00:00.000Z",
    data: { premium: 120000 },
  };
  const text =
    ": stream open\n\n" +
    `id: 12.0\nevent: flow.block\ndata: ${JSON.stringify(ev)}\n\n` +
    ": heartbeat\n\n" +
    "event: flow.sweep\ndata: not json\n\n" +
    `event: error\ndata: ${JSON.stringify({ error: { code: "key_revoked", message: "The key was revoked." }, data: null })}\n\n` +
    `event: playground.end\ndata: ${JSON.stringify({ reason: "Closed after 10 minutes." })}\n\n`;
  for (let i = 0; i < text.length; i += 7) p.feed(text.slice(i, i + 7));
  assert.deepEqual(got, [
    { kind: "event", item: ev },
    { kind: "heartbeat" },
    { kind: "error", code: "key_revoked", message: "The key was revoked." },
    { kind: "end", reason: "Closed after 10 minutes." },
  ]);
});

test("the usage page counts the live stream's calls of the day (openings and delivered events), none as null", () => {
  const cell = (bucket: string, endpointId: string, calls: number, statusClass: "2xx" | "4xx" = "2xx") => ({
    bucket,
    endpointId,
    family: "B" as const,
    statusClass,
    calls,
  });
  const cells = [
    cell("2026-11-24", "GET /api/v1/stream", 40),
    cell("2026-11-24", "GET /api/v1/stream", 2, "4xx"),
    cell("2026-11-23", "GET /api/v1/stream", 7),
    cell("2026-11-24", "GET /api/v1/history/{symbol}", 5),
  ];
  assert.equal(streamCallsOn(cells, "2026-11-24"), 42);
  assert.equal(streamCallsOn(cells, "2026-11-23"), 7);
  assert.equal(streamCallsOn(cells, "2026-11-22"), null);
});
