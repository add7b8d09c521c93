/** The options-flow filters through the real API server: side, expiry range and moneyness narrow the events. */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { startRouteHarness, type Harness } from "../helpers/route-harness";
import { accountWithKey } from "../helpers/accounts";
import { lastFridayClose } from "../helpers/live-data";

let t: TestDatabase;
let server: Harness;
let key: string;

interface FlowEvent {
  side: string;
  contract: { expiry: string; strike: number; right: string };
}

before(async () => {
  t = await createSeededTestDatabase("flow_filters_api", {
    seed: "options-research-demo-v1",
    now: lastFridayClose(new Date()),
  });
  server = await startRouteHarness(t.url);
  await t.sql`update plans set a_per_minute = 100000, a_per_month = 100000 where id = 'sandbox'`;
  key = (await accountWithKey(t.db)).key;
});

after(async () => {
  await server?.stop();
  await t?.drop();
});

async function flow(query: string): Promise<{ status: number; events: FlowEvent[]; code?: string }> {
  const res = await fetch(`${server.baseUrl}/api/v1/options-flow?limit=500${query}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const body = (await res.json()) as { data?: { events: FlowEvent[] }; error?: { code: string } };
  return { status: res.status, events: body.data?.events ?? [], code: body.error?.code };
}

test("side and expiry filters keep only matching events, and a bad value is a 400", async () => {
  const all = await flow("");
  assert.equal(all.status, 200);
  assert.ok(all.events.length > 0, "the demo market has flow events");
  const side = all.events[0].side;
  const bySide = await flow(`&side=${side.toUpperCase()}`);
  assert.equal(bySide.status, 200);
  assert.ok(bySide.events.length > 0);
  assert.ok(bySide.events.every((e) => e.side === side));
  assert.equal(bySide.events.length, all.events.filter((e) => e.side === side).length);

  const expiries = [...new Set(all.events.map((e) => e.contract.expiry))].sort();
  const first = expiries[0];
  const ranged = await flow(`&expiry_from=${first}&expiry_to=${first}`);
  assert.equal(ranged.status, 200);
  assert.ok(ranged.events.length > 0);
  assert.ok(ranged.events.every((e) => e.contract.expiry === first));

  const moneyness = await flow("&moneyness=otm");
  assert.equal(moneyness.status, 200);
  assert.ok(moneyness.events.length <= all.events.length);

  for (const bad of ["&side=sideways", "&expiry_from=2025-13-01", "&moneyness=deep"]) {
    const refused = await flow(bad);
    assert.equal(refused.status, 400, bad);
    assert.equal(refused.code, "invalid_request", bad);
  }
});
