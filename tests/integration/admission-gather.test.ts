/**
 * The admission gather window (ADMISSION_GATHER_US, lib/api/admission.ts) against a real PostgreSQL: a batch starts no
 * sooner than the window after the previous one, so calls arriving meanwhile share it; a call after a quiet spell goes
 * at once; gatherCalls (or maxBatch) waiting calls end the wait; every call is still decided exactly and committed.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { accountWithKey } from "../helpers/accounts";
import { seedReferenceData } from "../../lib/domain/seed";
import { endpointCatalogue } from "../../lib/api/routes";
import { AdmissionBatcher } from "../../lib/api/admission";
import type { AdmissionCall } from "../../lib/api/limits";
import { burstWindow, quotaWindow } from "../../lib/limits/windows";
import type { Plan } from "../../lib/api/config-cache";

let t: TestDatabase;
const plan = { aPerMinute: 1000, aPerMonth: 100_000, bPerMinute: 1000, bPerDay: 100_000 } as Plan;
const WINDOW_MS = 400;

function callFor(keyId: string, accountId: string): AdmissionCall {
  const now = new Date();
  return {
    m: {
      requestId: randomUUID(),
      keyId,
      accountId,
      endpointId: "GET /api/v1/ticker/{symbol}/summary",
      latencyMs: 1,
      now,
    },
    burst: burstWindow("A", plan, now),
    quota: quotaWindow("A", plan, now),
    status: 200,
    errorCode: null,
    record: true,
  };
}

/** Admits a call; resolves with how long it took (ms) and its burst unit. */
async function timed(b: AdmissionBatcher, call: AdmissionCall) {
  const t0 = performance.now();
  const o = await b.admit(call);
  return { ms: performance.now() - t0, burstUsed: o.burstUsed };
}

describe("admission gather window", () => {
  before(async () => {
    t = await createTestDatabase("admgather");
    await seedReferenceData(t.db, endpointCatalogue());
  });
  after(async () => t?.drop());

  it("sends a call after a quiet spell at once, and gathers the calls that follow it into one batch", async () => {
    const k = await accountWithKey(t.db);
    const b = new AdmissionBatcher(t.sql, { maxBatch: 100, maxQueue: 100, gatherUs: WINDOW_MS * 1000 });
    const first = await timed(b, callFor(k.keyId, k.accountId));
    assert.ok(first.ms < WINDOW_MS / 2, `the lone call waited ${first.ms.toFixed(0)} ms`);
    assert.equal(b.batches, 1);
    // Five calls spread over 100 ms, inside the window that the first batch opened: one batch, sent when it ends.
    const started = performance.now();
    const later: Promise<{ ms: number; burstUsed: number }>[] = [];
    for (let i = 0; i < 5; i++) {
      later.push(timed(b, callFor(k.keyId, k.accountId)));
      await sleep(20);
    }
    const out = await Promise.all(later);
    assert.equal(b.batches, 2, "the five calls share one batch");
    assert.deepEqual(
      out.map((o) => o.burstUsed),
      [2, 3, 4, 5, 6],
    );
    const waited = performance.now() - started;
    assert.ok(waited < WINDOW_MS * 2, `the gathered calls waited ${waited.toFixed(0)} ms, more than the window allows`);
    const [c] = await t.sql`select count(*)::int as n from usage_events where key_id = ${k.keyId}`;
    assert.equal(c.n, 6, "every call committed");
    // After a quiet spell longer than the window, a call goes at once again.
    await sleep(WINDOW_MS + 50);
    const alone = await timed(b, callFor(k.keyId, k.accountId));
    assert.ok(alone.ms < WINDOW_MS / 2, `the call after a quiet spell waited ${alone.ms.toFixed(0)} ms`);
    assert.equal(b.batches, 3);
  });

  it("sends at once when maxBatch calls wait, however long the window", async () => {
    const k = await accountWithKey(t.db);
    const b = new AdmissionBatcher(t.sql, { maxBatch: 4, maxQueue: 100, gatherUs: 10_000_000 });
    await b.admit(callFor(k.keyId, k.accountId));
    const t0 = performance.now();
    const out = await Promise.all(Array.from({ length: 4 }, () => b.admit(callFor(k.keyId, k.accountId))));
    assert.ok(performance.now() - t0 < 2000, "four waiting calls end the 10 s window");
    assert.equal(b.batches, 2);
    assert.deepEqual(
      out.map((o) => o.burstUsed),
      [2, 3, 4, 5],
    );
  });

  it("sends at once when gatherCalls calls wait, below maxBatch", async () => {
    const k = await accountWithKey(t.db);
    const b = new AdmissionBatcher(t.sql, { maxBatch: 100, maxQueue: 100, gatherUs: 10_000_000, gatherCalls: 3 });
    await b.admit(callFor(k.keyId, k.accountId));
    const t0 = performance.now();
    const out = await Promise.all(Array.from({ length: 3 }, () => b.admit(callFor(k.keyId, k.accountId))));
    assert.ok(performance.now() - t0 < 2000, "three waiting calls end the 10 s window");
    assert.equal(b.batches, 2);
    assert.deepEqual(
      out.map((o) => o.burstUsed),
      [2, 3, 4],
    );
  });

  it("with several batches in flight, every gathering batch is sent and the limit stays exact", async () => {
    const k = await accountWithKey(t.db);
    const tight = { ...plan, aPerMinute: 7 } as Plan;
    const b = new AdmissionBatcher(t.sql, { maxBatch: 3, maxQueue: 100, maxInFlight: 3, gatherUs: 50_000 });
    const calls = Array.from({ length: 20 }, async (_, i) => {
      await sleep(i * 5);
      const c = callFor(k.keyId, k.accountId);
      return b.admit({ ...c, burst: burstWindow("A", tight, c.m.now) });
    });
    const out = await Promise.all(calls);
    assert.equal(out.filter((o) => o.status === 200).length, 7);
    assert.equal(out.filter((o) => o.status === 429).length, 13);
    const [c] = await t.sql`select count(*)::int as n from usage_events where key_id = ${k.keyId}`;
    assert.equal(c.n, 20);
  });
});
