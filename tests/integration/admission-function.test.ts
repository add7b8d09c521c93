/**
 * admit_batch (migration 0009) decides a batch in one statement exactly as one-by-one admission would: calls in
 * arrival order against the locked counters, burst one unit per admitted call, quota one per admitted 2xx, neither past
 * its limit; burst refuses with 429 rate_limit_exceeded, quota with 403 plan_limit_exceeded (the call still took its
 * burst unit); unrecorded calls are decided but write no event or daily row. Pinned here on hand-worked batches.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { accountWithKey } from "../helpers/accounts";
import { seedReferenceData } from "../../lib/domain/seed";
import { endpointCatalogue } from "../../lib/api/routes";
import { runBatch } from "../../lib/api/admission";
import type { AdmissionCall } from "../../lib/api/limits";
import type { Window } from "../../lib/limits/windows";

let t: TestDatabase;
const now = new Date("2026-11-23T10:00:30Z");
const minute = new Date("2026-11-23T10:00:00Z");
const month = new Date("2026-11-01T00:00:00Z");
const EP = "GET /api/v1/ticker/{symbol}/summary";
const EP2 = "GET /api/v1/options-flow";
const win = (name: Window["name"], bucket: string, start: Date, limit: number): Window => ({
  name,
  bucket,
  start,
  end: new Date(start.getTime() + 60_000),
  limit,
});

interface Key {
  keyId: string;
  accountId: string;
  burst: Window;
  quota: Window;
}
const call = (
  k: Key,
  i: number,
  status: number,
  opts: { record?: boolean; endpointId?: string } = {},
): AdmissionCall => ({
  m: {
    requestId: `r${i}-${k.keyId}`,
    keyId: k.keyId,
    accountId: k.accountId,
    endpointId: opts.endpointId ?? EP,
    latencyMs: i + 0.5,
    now,
  },
  burst: k.burst,
  quota: k.quota,
  status,
  errorCode: status >= 200 && status < 300 ? null : status === 404 ? "not_found" : "internal_error",
  record: opts.record ?? true,
});
const setCounter = (keyId: string, w: Window, count: number) =>
  t.sql`insert into usage_counters (key_id, bucket, window_start, count) values (${keyId}, ${w.bucket}, ${w.start.toISOString()}::timestamptz, ${count})`;
const counter = async (keyId: string, w: Window) =>
  (
    await t.sql`select count from usage_counters where key_id = ${keyId} and bucket = ${w.bucket} and window_start = ${w.start.toISOString()}::timestamptz`
  )[0]?.count;
const outcomeRows = (os: Awaited<ReturnType<typeof runBatch>>) =>
  os.map((o) => [o.limited, o.status, o.burstUsed, o.quotaUsed]);

describe("admit_batch", () => {
  before(async () => {
    t = await createTestDatabase("admfn");
    await seedReferenceData(t.db, endpointCatalogue());
  });
  after(async () => t?.drop());

  it("decides a mixed batch on two keys in arrival order, limits reached mid-batch, and writes exactly its decisions", async () => {
    const a = await accountWithKey(t.db);
    const b = await accountWithKey(t.db);
    // k1: burst 1 of 4 used, quota 1 of 3. k2 (family B windows): burst 0 of 5, quota 1 of 2.
    const k1: Key = { ...a, burst: win("minute", "A:minute", minute, 4), quota: win("month", "A:month", month, 3) };
    const k2: Key = {
      ...b,
      burst: win("minute", "B:minute", minute, 5),
      quota: win("day", "B:day", new Date("2026-11-23T00:00:00Z"), 2),
    };
    await setCounter(k1.keyId, k1.burst, 1);
    await setCounter(k1.keyId, k1.quota, 1);
    await setCounter(k2.keyId, k2.quota, 1); // k2's burst row does not exist yet: created by the batch
    const calls = [
      call(k1, 0, 200), //                    burst 1→2, quota 1→2
      call(k2, 1, 404), //                    burst 0→1, a 404 takes no quota
      call(k1, 2, 404, { endpointId: EP2 }), // burst 2→3
      call(k2, 3, 200), //                    burst 1→2, quota 1→2: k2's quota is now spent
      call(k1, 4, 200), //                    burst 3→4, quota 2→3: k1's burst and quota are both spent
      call(k2, 5, 200), //                    403: burst 2→3 (taken), quota refused
      call(k2, 6, 500, { record: false }), // 403 too, burst 3→4, but no event and no daily row
      call(k1, 7, 200), //                    429: burst spent (checked before quota)
      call(k2, 8, 503), //                    403 even for a non-2xx: burst 4→5
      call(k2, 9, 200), //                    429: k2's burst is now spent as well
    ];
    const out = await runBatch(t.sql, calls);
    assert.deepEqual(outcomeRows(out), [
      [null, 200, 2, 2],
      [null, 404, 1, 1],
      [null, 404, 3, 2],
      [null, 200, 2, 2],
      [null, 200, 4, 3],
      ["quota", 403, 3, 2],
      ["quota", 403, 4, 2],
      ["burst", 429, 4, 3],
      ["quota", 403, 5, 2],
      ["burst", 429, 5, 2],
    ]);
    assert.deepEqual([await counter(k1.keyId, k1.burst), await counter(k1.keyId, k1.quota)], [4, 3]);
    assert.deepEqual([await counter(k2.keyId, k2.burst), await counter(k2.keyId, k2.quota)], [5, 2]);

    const events =
      await t.sql`select request_id, key_id, account_id::text, endpoint_id, status, error_code, latency_ms, created_at
      from usage_events where key_id in (${k1.keyId}, ${k2.keyId}) order by id`;
    assert.deepEqual(
      events.map((e) => [e.request_id, e.status, e.error_code]),
      [
        [`r0-${k1.keyId}`, 200, null],
        [`r1-${k2.keyId}`, 404, "not_found"],
        [`r2-${k1.keyId}`, 404, "not_found"],
        [`r3-${k2.keyId}`, 200, null],
        [`r4-${k1.keyId}`, 200, null],
        [`r5-${k2.keyId}`, 403, "plan_limit_exceeded"],
        [`r7-${k1.keyId}`, 429, "rate_limit_exceeded"],
        [`r8-${k2.keyId}`, 403, "plan_limit_exceeded"],
        [`r9-${k2.keyId}`, 429, "rate_limit_exceeded"],
      ],
      "one event per recorded call, in arrival order, with the decided status",
    );
    for (const e of events) {
      const k = e.key_id === k1.keyId ? k1 : k2;
      assert.equal(e.account_id, k.accountId, "every event carries its key's account");
      assert.equal(new Date(e.created_at).toISOString(), now.toISOString());
    }
    assert.equal(events.find((e) => e.request_id === `r2-${k1.keyId}`)?.endpoint_id, EP2);
    assert.equal(events.find((e) => e.request_id === `r8-${k2.keyId}`)?.latency_ms, 8.5);

    const daily =
      await t.sql`select key_id, account_id::text, day::text, endpoint_id, calls, ok_calls, client_errors, server_errors, latency_ms_sum
      from usage_daily where key_id in (${k1.keyId}, ${k2.keyId}) order by key_id = ${k2.keyId}, endpoint_id = ${EP2}`;
    assert.deepEqual(
      daily.map((d) => [
        d.key_id,
        d.account_id,
        d.day,
        d.endpoint_id,
        d.calls,
        d.ok_calls,
        d.client_errors,
        d.server_errors,
        d.latency_ms_sum,
      ]),
      [
        [k1.keyId, k1.accountId, "2026-11-23", EP, 3, 2, 1, 0, 0.5 + 4.5 + 7.5],
        [k1.keyId, k1.accountId, "2026-11-23", EP2, 1, 0, 1, 0, 2.5],
        [k2.keyId, k2.accountId, "2026-11-23", EP, 5, 1, 4, 0, 1.5 + 3.5 + 5.5 + 8.5 + 9.5],
      ],
    );
  });

  it("adds to the counters and daily rows earlier batches left, and a later batch sees this one's counts", async () => {
    const a = await accountWithKey(t.db);
    const k: Key = { ...a, burst: win("minute", "A:minute", minute, 3), quota: win("month", "A:month", month, 100) };
    const first = await runBatch(t.sql, [call(k, 0, 200), call(k, 1, 500)]);
    assert.deepEqual(outcomeRows(first), [
      [null, 200, 1, 1],
      [null, 500, 2, 1],
    ]);
    const second = await runBatch(t.sql, [call(k, 2, 200), call(k, 3, 200), call(k, 4, 0, { record: false })]);
    assert.deepEqual(outcomeRows(second), [
      [null, 200, 3, 2],
      ["burst", 429, 3, 2],
      ["burst", 429, 3, 2],
    ]);
    const [d] =
      await t.sql`select calls, ok_calls, client_errors, server_errors, latency_ms_sum from usage_daily where key_id = ${k.keyId}`;
    assert.deepEqual(
      [d.calls, d.ok_calls, d.client_errors, d.server_errors, d.latency_ms_sum],
      [4, 2, 1, 1, 0.5 + 1.5 + 2.5 + 3.5],
    );
    assert.deepEqual([await counter(k.keyId, k.burst), await counter(k.keyId, k.quota)], [3, 2]);
  });

  it("a call whose window rolled over starts from a fresh counter in the same batch", async () => {
    const a = await accountWithKey(t.db);
    const k: Key = { ...a, burst: win("minute", "A:minute", minute, 1), quota: win("month", "A:month", month, 100) };
    const next: Key = { ...k, burst: win("minute", "A:minute", new Date(minute.getTime() + 60_000), 1) };
    const out = await runBatch(t.sql, [call(k, 0, 200), call(k, 1, 200), call(next, 2, 200), call(next, 3, 200)]);
    assert.deepEqual(outcomeRows(out), [
      [null, 200, 1, 1],
      ["burst", 429, 1, 1],
      [null, 200, 1, 2],
      ["burst", 429, 1, 2],
    ]);
  });

  it("refuses inconsistent arguments and isolation levels other than READ COMMITTED, writing nothing", async () => {
    const args = (
      slotKeys: string,
      keyIds: string,
      burstSlots: string,
      quotaSlots = "{2}",
    ) => t.sql`select * from admit_batch(${slotKeys}::text[],
      '{A:minute,A:month}', '{2026-11-23T10:00:00Z,2026-11-01T00:00:00Z}', '{r}', ${keyIds}::text[], '{00000000-0000-0000-0000-000000000001}', '{e}',
      '{200}', '{null}', '{1}', '{2026-11-23T10:00:30Z}', '{t}', ${burstSlots}::int[], '{5}', ${quotaSlots}::int[], '{5}')`;
    await assert.rejects(args("{k,k}", "{k,k}", "{1}"), /differ in length/);
    await assert.rejects(args("{k,k}", "{k}", "{3}"), /no slot|another key/);
    await assert.rejects(args("{k,other}", "{k}", "{1}"), /no slot|another key/);
    await assert.rejects(args("{k,k}", "{k}", "{1}", "{1}"), /one slot twice/);
    const [{ n: left }] = await t.sql`select count(*)::int as n from usage_events where key_id in ('k', 'other')`;
    assert.equal(left, 0);
    const a = await accountWithKey(t.db);
    const k: Key = { ...a, burst: win("minute", "A:minute", minute, 5), quota: win("month", "A:month", month, 5) };
    await assert.rejects(
      t.sql.begin("isolation level repeatable read", (tx) => runBatch(tx, [call(k, 0, 200)])),
      /READ COMMITTED/,
    );
    const [{ n }] = await t.sql`select count(*)::int as n from usage_counters where key_id = ${a.keyId}`;
    assert.equal(n, 0);
    assert.deepEqual(await runBatch(t.sql, []), []);
  });
});
