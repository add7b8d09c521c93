/**
 * Admission batching against a real PostgreSQL. Calls queued behind the transaction in flight are decided by
 * the next one in arrival order; a failing batch fails only its own calls (data_source_unavailable, nothing written);
 * the queue is bounded.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { accountWithKey } from "../helpers/accounts";
import { seedReferenceData } from "../../lib/domain/seed";
import { endpointCatalogue } from "../../lib/api/routes";
import { AdmissionBatcher } from "../../lib/api/admission";
import { ApiError } from "../../lib/api/errors";
import type { AdmissionCall, LimitOutcome } from "../../lib/api/limits";
import { burstWindow, quotaWindow } from "../../lib/limits/windows";
import type { Plan } from "../../lib/api/config-cache";

let t: TestDatabase;
const plan = { aPerMinute: 5, aPerMonth: 1000, bPerMinute: 5, bPerDay: 1000 } as Plan;

function callFor(keyId: string, accountId: string, requestId: string = randomUUID()): AdmissionCall {
  const now = new Date();
  return {
    m: { requestId, keyId, accountId, endpointId: "GET /api/v1/ticker/{symbol}/summary", latencyMs: 1, now },
    burst: burstWindow("A", plan, now),
    quota: quotaWindow("A", plan, now),
    status: 200,
    errorCode: null,
    record: true,
  };
}

const settled = (ps: Promise<LimitOutcome>[]) => Promise.allSettled(ps);

describe("admission batching", () => {
  before(async () => {
    t = await createTestDatabase("admbatch");
    await seedReferenceData(t.db, endpointCatalogue());
  });
  after(async () => t?.drop());

  it("decides queued calls together, assigning the admitted ones in arrival order", async () => {
    const k = await accountWithKey(t.db);
    const batcher = new AdmissionBatcher(t.sql, { maxBatch: 100, maxQueue: 100 });
    const ids = Array.from({ length: 9 }, (_, i) => `order-${i}-${randomUUID()}`);
    // The first call starts a transaction at once; the other eight queue behind it and form the second batch.
    const out = await Promise.all(ids.map((id) => batcher.admit(callFor(k.keyId, k.accountId, id))));
    assert.equal(batcher.batches, 2);
    assert.deepEqual(
      out.map((o) => o.status),
      [200, 200, 200, 200, 200, 429, 429, 429, 429],
    );
    assert.deepEqual(
      out.map((o) => o.burstUsed),
      [1, 2, 3, 4, 5, 5, 5, 5, 5],
    );
    const rows = await t.sql`select request_id, status from usage_events where key_id = ${k.keyId}`;
    const byId = new Map(rows.map((r) => [r.request_id as string, r.status as number]));
    assert.deepEqual(
      ids.map((id) => byId.get(id)),
      out.map((o) => o.status),
      "every call committed with its own outcome",
    );
    const [c] = await t.sql`select count from usage_counters where key_id = ${k.keyId} and bucket = 'A:minute'`;
    assert.equal(c.count, 5);
    const [d] = await t.sql`select calls::int, ok_calls::int from usage_daily where key_id = ${k.keyId}`;
    assert.deepEqual([d.calls, d.ok_calls], [9, 5]);
  });

  it("batches in flight together stay exact: 40 calls at limit 5 with 3 transactions in flight admit exactly 5", async () => {
    const k = await accountWithKey(t.db);
    const batcher = new AdmissionBatcher(t.sql, { maxBatch: 4, maxQueue: 100, maxInFlight: 3 });
    const out = await Promise.all(Array.from({ length: 40 }, () => batcher.admit(callFor(k.keyId, k.accountId))));
    assert.deepEqual(
      out
        .filter((o) => o.status === 200)
        .map((o) => o.burstUsed)
        .sort(),
      [1, 2, 3, 4, 5],
    );
    assert.equal(out.filter((o) => o.status === 429).length, 35);
    const [{ n }] = await t.sql`select count(*)::int as n from usage_events where key_id = ${k.keyId}`;
    assert.equal(n, 40);
  });

  it("a failing batch fails only its own calls, with data_source_unavailable, and writes nothing", async () => {
    const k = await accountWithKey(t.db);
    const batcher = new AdmissionBatcher(t.sql, { maxBatch: 100, maxQueue: 100 });
    const first = batcher.admit(callFor(k.keyId, k.accountId)); // batch 1, alone
    // Batch 2: one call whose account id is not a uuid makes the whole statement fail.
    const doomed = [
      batcher.admit(callFor(k.keyId, k.accountId)),
      batcher.admit(callFor(k.keyId, "not-a-uuid")),
      batcher.admit(callFor(k.keyId, k.accountId)),
    ];
    assert.equal((await first).status, 200);
    const results = await settled(doomed);
    for (const r of results) {
      assert.equal(r.status, "rejected");
      const err = (r as PromiseRejectedResult).reason;
      assert.ok(err instanceof ApiError);
      assert.equal(err.code, "data_source_unavailable");
      assert.equal(err.status, 503);
      assert.equal(err.headers["retry-after"], "5");
    }
    const later = await batcher.admit(callFor(k.keyId, k.accountId)); // the next batch is unaffected
    assert.deepEqual([later.status, later.burstUsed], [200, 2]);
    const [{ n }] = await t.sql`select count(*)::int as n from usage_events where key_id = ${k.keyId}`;
    assert.equal(n, 2, "the failed batch wrote no event");
  });

  it("bounds the queue: calls beyond maxQueue behind the transaction in flight are refused at once", async () => {
    const k = await accountWithKey(t.db);
    const batcher = new AdmissionBatcher(t.sql, { maxBatch: 2, maxQueue: 3 });
    const results = await settled(Array.from({ length: 7 }, () => batcher.admit(callFor(k.keyId, k.accountId))));
    // 1 in flight + 3 queued are decided (in batches of at most 2); the last 3 are refused without touching the store.
    assert.deepEqual(
      results.map((r) => r.status),
      ["fulfilled", "fulfilled", "fulfilled", "fulfilled", "rejected", "rejected", "rejected"],
    );
    assert.equal(batcher.batches, 3);
    for (const r of results.slice(4))
      assert.equal(((r as PromiseRejectedResult).reason as ApiError).code, "data_source_unavailable");
    const [{ n }] = await t.sql`select count(*)::int as n from usage_events where key_id = ${k.keyId}`;
    assert.equal(n, 4);
  });
});
