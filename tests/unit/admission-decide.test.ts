/** Issue 9: a batch's calls are assigned to the locked counters in arrival order, exactly as one-by-one admission would. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { decideBatch, type AdmissionCall } from "../../lib/api/limits";
import type { Window } from "../../lib/api/windows";

const now = new Date("2026-11-23T10:00:30Z");
const win = (bucket: string, limit: number, start: string): Window => ({ name: "minute", bucket, start: new Date(start), end: new Date(now.getTime() + 60_000), limit });
const burst = win("A:minute", 3, "2026-11-23T10:00:00Z");
const quota = win("A:month", 4, "2026-11-01T00:00:00Z");
const call = (i: number, status = 200, keyId = "k1", record = true): AdmissionCall => ({
  m: { requestId: `r${i}`, keyId, accountId: "00000000-0000-0000-0000-000000000001", endpointId: "e", latencyMs: i, now },
  burst, quota, status, errorCode: status === 200 ? null : "not_found", record,
});
const slot = (keyId: string, w: Window) => `${keyId}|${w.bucket}|${w.start.toISOString()}`;

test("admits in arrival order up to the burst limit, later calls get 429 with the limit as used", () => {
  const prior = new Map([[slot("k1", burst), 1], [slot("k1", quota), 0]]);
  const d = decideBatch([0, 1, 2, 3].map((i) => call(i)), prior);
  assert.deepEqual(d.outcomes.map((o) => [o.limited, o.status, o.burstUsed, o.quotaUsed]), [
    [null, 200, 2, 1], [null, 200, 3, 2], ["burst", 429, 3, 2], ["burst", 429, 3, 2],
  ]);
  assert.equal(d.counters.get(slot("k1", burst)), 3);
  assert.equal(d.counters.get(slot("k1", quota)), 2);
  assert.deepEqual(d.events.map((e) => [e.requestId, e.status, e.errorCode]), [["r0", 200, null], ["r1", 200, null], ["r2", 429, "rate_limit_exceeded"], ["r3", 429, "rate_limit_exceeded"]]);
  assert.deepEqual(d.daily.map((r) => [r.calls, r.ok, r.client, r.server, r.latencyMsSum]), [[4, 2, 2, 0, 6]]);
});

test("only 2xx take quota; a spent quota refuses with 403 even non-2xx calls, which still take burst", () => {
  const prior = new Map([[slot("k1", burst), 0], [slot("k1", quota), 3]]);
  const d = decideBatch([call(0, 404), call(1), call(2)], prior);
  assert.deepEqual(d.outcomes.map((o) => [o.limited, o.status, o.burstUsed, o.quotaUsed]), [[null, 404, 1, 3], [null, 200, 2, 4], ["quota", 403, 3, 4]]);
  assert.equal(d.events[2].errorCode, "plan_limit_exceeded");
  assert.equal(d.counters.get(slot("k1", quota)), 4);
});

test("keys are counted separately and unrecorded calls write no event", () => {
  const d = decideBatch([call(0, 0, "k1", false), call(1, 200, "k2"), call(2, 200, "k1")], new Map());
  assert.deepEqual(d.outcomes.map((o) => o.burstUsed), [1, 1, 2]);
  assert.deepEqual(d.events.map((e) => e.requestId), ["r1", "r2"]);
  assert.equal(d.daily.length, 2);
});
