/** The history route's rendered answers: rows written straight to JSON text, and the bounded cache that keeps them. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { HISTORY_FIELDS, historyRow, historyRowsJson, type HistoryField } from "../../lib/engine/history-read";
import type { StoredSnapshot } from "../../lib/market/metric-snapshots-store";
import type { DataLabel } from "../../lib/engine/types";
import { HistoryCache, type RenderedHistory } from "../../lib/api/routes/history-cache";

const snapshot = (over: Partial<StoredSnapshot> = {}): StoredSnapshot => ({
  symbol: "AAPL",
  date: "2026-11-20",
  asOf: new Date("2026-11-20T21:00:00Z"),
  price: 190.25,
  ivRank: 41.2,
  ivPercentile: null,
  atmIv30d: 0.00003,
  skew25d: -1.5e-7,
  termSlope: Number.NaN,
  expectedMove: 1e21,
  expectedMovePct: 0,
  serviceScore: 62,
  components: { momentum20d: 12, trend50d: -3.25, iv_rank: 41 },
  sentiment: 'say "hi"\n',
  riskLevel: "medium",
  noTradeDecision: "trade",
  failedChecks: ["liquidity", "earnings_window"],
  callsPremium: 1234567.89,
  putsPremium: null,
  sweepCount: 3,
  blockCount: 0,
  unusualCount: null,
  ...over,
});

test("the rows' JSON text is exactly JSON.stringify of the row objects, for every field list", () => {
  const stored = [
    snapshot(),
    snapshot({ date: "2026-11-21", failedChecks: [], components: {}, price: -0, termSlope: 0.1 }),
  ];
  const labels: DataLabel[] = ["end-of-day", "delayed-15m"];
  const lists: (readonly HistoryField[])[] = [HISTORY_FIELDS, ["price", "iv_rank"], ["components"], ["failed_checks"]];
  for (const fields of lists) {
    const expected = JSON.stringify(stored.map((s, i) => historyRow(s, fields, labels[i])));
    assert.equal(historyRowsJson(stored, fields, labels), expected, fields.join(","));
  }
  assert.equal(historyRowsJson([], HISTORY_FIELDS, []), "[]");
});

const answer = (chars: number, version = "v1"): RenderedHistory => ({
  version,
  body: "x".repeat(chars),
  asOf: undefined,
  checkedAt: 0,
});

test("the cache keeps the most recently used answers within its bound and replaces a key's answer", () => {
  const cache = new HistoryCache(8000); // about 1,757 bytes an answer below: four fit, not five
  for (const k of ["a", "b", "c", "d"]) cache.set(k, answer(1500));
  assert.equal(cache.get("a")?.body.length, 1500); // a is now the most recently used
  cache.set("e", answer(1500)); // over the bound: b, the least recently used, goes
  assert.equal(cache.get("b"), undefined);
  assert.ok(cache.get("a") && cache.get("c") && cache.get("d") && cache.get("e"));
  assert.ok(cache.stats().bytes <= 8000, JSON.stringify(cache.stats()));
  cache.set("a", answer(100, "v2"));
  assert.equal(cache.get("a")?.version, "v2");
  assert.equal(cache.stats().entries, 4);
  cache.delete("a");
  assert.equal(cache.get("a"), undefined);
  const counted = cache.stats().bytes;
  cache.set("huge", answer(5000)); // more than a quarter of the room: not kept, nothing evicted for it
  assert.equal(cache.get("huge"), undefined);
  assert.equal(cache.stats().bytes, counted);
});

test("a cache of size 0 keeps nothing", () => {
  const cache = new HistoryCache(0);
  cache.set("a", answer(1));
  assert.equal(cache.get("a"), undefined);
  assert.deepEqual(cache.stats(), { entries: 0, bytes: 0 });
});
