/**
 * The admin overview's counts agree with each other (issue 32): with 0, 1 and many metered calls, recorded through the
 * gateway's own metering (settle, admitUnits), the error card's total and shares, the per-route per-day chart, the
 * per-day rates, the route table's totals and the top accounts are the same numbers, over one window (the last 30 UTC
 * days, today included), and the empty state's condition (no calls) holds exactly when the count is 0.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { newOwner } from "../helpers/portal-domain";
import { seedReferenceData } from "../../lib/domain/seed";
import { endpointCatalogue } from "../../lib/api/routes";
import { createKey } from "../../lib/domain/keys";
import { adminOverview, type Overview, REFUSED_STATUSES, shareOf } from "../../lib/domain/admin-overview";
import { settle } from "../../lib/api/limits";
import { admitUnits } from "../../lib/api/admit-units";
import { burstWindow, quotaWindow } from "../../lib/limits/windows";

const NOW = new Date("2026-11-27T09:30:00Z");
const DAY = 86_400_000;
const PLAN = { aPerMinute: 1_000_000, bPerMinute: 1_000_000, aPerMonth: 1_000_000, bPerDay: 1_000_000 };

let t: TestDatabase;

/** The page's numbers, each derived the way app/admin/page.tsx derives it, checked against each other. */
function assertAgrees(
  o: Overview,
  expected: { calls: number; s401: number; s403: number; s429: number; s5xx: number },
) {
  const sum = (xs: number[]) => xs.reduce((n, x) => n + x, 0);
  assert.equal(o.days.length, 30);
  assert.equal(o.days.at(-1), NOW.toISOString().slice(0, 10));
  assert.deepEqual(
    { calls: o.totals.calls, s401: o.totals.s401, s403: o.totals.s403, s429: o.totals.s429, s5xx: o.totals.s5xx },
    expected,
  );
  // The charts of families A and B together, and the route table's totals, count the card's calls.
  const familyTotal = (f: "A" | "B") => sum(o.routes.filter((r) => r.family === f).map((r) => r.total));
  assert.equal(familyTotal("A") + familyTotal("B"), o.totals.calls);
  for (const r of o.routes) assert.equal(sum(r.perDay), r.total, r.endpointId);
  o.days.forEach((day, i) => {
    assert.equal(o.rates[i].day, day);
    assert.equal(sum(o.routes.map((r) => r.perDay[i])), o.rates[i].calls, `calls on ${day}`);
    for (const k of REFUSED_STATUSES) {
      assert.ok(o.rates[i][k] <= o.rates[i].calls, `${k} on ${day}`);
      assert.equal(o.rates[i].share[k], shareOf(o.rates[i][k], o.rates[i].calls));
    }
  });
  assert.equal(sum(o.rates.map((r) => r.calls)), o.totals.calls);
  for (const k of REFUSED_STATUSES) {
    assert.equal(sum(o.rates.map((r) => r[k])), o.totals[k], k);
    assert.equal(o.totals.share[k], shareOf(o.totals[k], o.totals.calls), k);
  }
  // Fewer than 11 accounts called, so the top accounts are all of them and count every call.
  assert.equal(sum(o.topAccounts.map((a) => a.calls)), o.totals.calls);
  // The empty states show exactly when the count is 0.
  assert.equal(o.topAccounts.length === 0, o.totals.calls === 0);
  assert.equal(
    o.rates.every((r) => r.calls === 0),
    o.totals.calls === 0,
  );
}

async function keyOf() {
  const owner = await newOwner(t.db);
  const key = await createKey(t.db, { accountId: owner.accountId, env: "test" }, owner.actor);
  return { accountId: owner.accountId, keyId: key.id };
}

/** One call recorded the way the gateway records a call decided outside the admission batch. */
async function call(k: { accountId: string; keyId: string }, endpoint: string, status: number, at: Date) {
  const family = endpointCatalogue().find((e) => e.id === endpoint)?.family ?? "A";
  await settle(t.sql, {
    m: {
      requestId: `req_${randomBytes(6).toString("hex")}`,
      keyId: k.keyId,
      accountId: k.accountId,
      endpointId: endpoint,
      latencyMs: 3,
      now: at,
    },
    status,
    errorCode: status >= 400 ? "test" : null,
    burst: burstWindow(family, PLAN, at),
    quota: quotaWindow(family, PLAN, at),
  });
}

describe("admin overview counts", () => {
  const [A, B] = (["A", "B"] as const).map((f) => {
    const e = endpointCatalogue().find((r) => r.family === f && !r.path.includes("stream"));
    assert.ok(e, `a family ${f} route`);
    return e.id;
  });
  const stream = endpointCatalogue().find((r) => r.path.includes("stream"));
  assert.ok(stream, "the stream route");
  before(async () => {
    t = await createTestDatabase("ovcounts");
    await seedReferenceData(t.db, endpointCatalogue());
  });
  after(async () => {
    await t?.drop();
  });

  it("0 calls: every count is 0 and every share 0 (no division by zero)", async () => {
    const o = await adminOverview(t.db, NOW);
    assertAgrees(o, { calls: 0, s401: 0, s403: 0, s429: 0, s5xx: 0 });
    assert.equal(o.routes.length, endpointCatalogue().length);
    for (const k of REFUSED_STATUSES) assert.equal(o.totals.share[k], 0);
  });

  it("1 call: counted once everywhere, on today's column; calls outside the window are not counted", async () => {
    const k = await keyOf();
    const from = new Date(`${(await adminOverview(t.db, NOW)).days[0]}T00:00:00Z`);
    await call(k, A, 200, new Date(from.getTime() - 1)); // a millisecond before the window
    await call(k, A, 200, new Date(NOW.getTime() + DAY)); // tomorrow
    await call(k, A, 200, NOW);
    const o = await adminOverview(t.db, NOW);
    assertAgrees(o, { calls: 1, s401: 0, s403: 0, s429: 0, s5xx: 0 });
    assert.equal(o.rates.at(-1)?.calls, 1);
    assert.equal(o.routes.find((r) => r.endpointId === A)?.perDay.at(-1), 1);
    assert.deepEqual(
      o.topAccounts.map((a) => [a.accountId, a.calls]),
      [[k.accountId, 1]],
    );
    // The symptom: calls that all succeeded are still calls (the card and the chart are not empty).
    assert.equal(o.totals.share.s401, 0);
  });

  it("many calls: statuses, days, accounts, families and multi-unit rows all agree", async () => {
    const k1 = await keyOf();
    const k2 = await keyOf();
    const o0 = await adminOverview(t.db, NOW);
    const first = new Date(`${o0.days[0]}T00:00:00Z`); // the window's first moment is inside it
    const plan: [typeof k1, string, number, Date][] = [
      [k1, A, 200, first],
      [k1, A, 401, new Date(NOW.getTime() - 3 * DAY)],
      [k1, B, 403, new Date(NOW.getTime() - 3 * DAY)],
      [k2, B, 429, new Date(NOW.getTime() - 10 * DAY)],
      [k2, B, 500, NOW],
      [k2, A, 503, NOW],
      [k2, B, 200, NOW],
      [k1, B, 200, new Date(NOW.getTime() - 29 * DAY)],
    ];
    for (const [k, e, s, at] of plan) await call(k, e, s, at);
    // A metered stream round: one usage_events row carrying 4 units (calls).
    {
      const [out] = await admitUnits(t.sql, [
        {
          requestId: `req_${randomBytes(6).toString("hex")}`,
          keyId: k2.keyId,
          accountId: k2.accountId,
          endpointId: stream.id,
          now: new Date(NOW.getTime() - DAY),
          units: 4,
          quota: quotaWindow(stream.family, PLAN, new Date(NOW.getTime() - DAY)),
        },
      ]);
      assert.equal(out.granted, 4);
    }
    const units = 4;
    const o = await adminOverview(t.db, NOW);
    // The 1 call of the previous test, the 8 above, the stream's units.
    assertAgrees(o, { calls: 1 + plan.length + units, s401: 1, s403: 1, s429: 1, s5xx: 2 });
    assert.equal(o.rates[0].calls, 2); // the window's first moment and 09:30 29 days ago
    assert.equal(o.rates.at(-1)?.calls, 1 + 3);
    assert.equal(o.rates.at(-1)?.share.s5xx, (100 * 2) / 4);
    assert.equal(o.rates.at(-2)?.calls, units);
    const byAccount = Object.fromEntries(o.topAccounts.map((a) => [a.accountId, a.calls]));
    assert.equal(byAccount[k1.accountId], 4);
    assert.equal(byAccount[k2.accountId], 4 + units);
    assert.ok(o.topAccounts.every((a) => a.owner?.endsWith("@example.com")));
  });
});
