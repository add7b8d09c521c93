/**
 * Discovery: a caller who knows nothing but GET /symbols and GET /symbols/{symbol}/expiries can build a
 * POST /outputs request that succeeds, for every demo symbol with listed options.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { startRouteHarness, type Harness } from "../helpers/route-harness";
import { accountWithKey } from "../helpers/accounts";
import { lastFridayClose } from "../helpers/live-data";
import { buildOpenApi } from "../../lib/api/openapi";
import { allRoutes } from "../../lib/api/routes";

let t: TestDatabase;
let server: Harness;
let key: string;

before(async () => {
  t = await createSeededTestDatabase("discovery", {
    seed: "options-research-demo-v1",
    now: lastFridayClose(new Date()),
  });
  // seeds the plan catalogue; plans are data, so the test raises Sandbox's limits after
  server = await startRouteHarness(t.url);
  await t.sql`update plans set b_per_minute = 100000, b_per_day = 100000 where id = 'sandbox'`;
  key = (await accountWithKey(t.db)).key;
});

after(async () => {
  await server?.stop();
  await t?.drop();
});

const get = async (path: string) => {
  const res = await fetch(`${server.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as any };
};

test("an outputs request built only from the discovery answers succeeds for every demo symbol", async () => {
  const symbols = await get("/api/v1/symbols");
  assert.equal(symbols.status, 200);
  const list: { symbol: string; type: string }[] = symbols.body.data.symbols;
  for (const s of ["SPY", "QQQ", "IWM", "BRK.B", "AAPL"])
    assert.ok(
      list.some((x) => x.symbol === s),
      `${s} is listed`,
    );
  let built = 0;
  for (const { symbol, type } of list) {
    const expiries = await get(`/api/v1/symbols/${encodeURIComponent(symbol)}/expiries`);
    // The demo volatility index has no listed options: its expiries answer says the data source has none.
    if (type === "volatility_index" && expiries.status === 503) continue;
    assert.equal(expiries.status, 200, `${symbol}: ${JSON.stringify(expiries.body).slice(0, 200)}`);
    // Not an expiry's last day: in its final hours cent quotes cannot pin a volatility (the price moves well under a
    // cent per vol point), so outputs answer 400 "no implied volatility" by design (docs/analytics-models.md).
    const expiry = (expiries.body.data.expiries as { expiry: string; strikes: number[]; days: number }[]).find(
      (e) => e.strikes.length >= 2 && e.days >= 1,
    );
    if (!expiry) continue; // no listed options (the volatility index)
    const mid = Math.floor(expiry.strikes.length / 2);
    const res = await fetch(`${server.baseUrl}/api/v1/outputs`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        symbol,
        strategy: "bull_call_spread",
        expiry: expiry.expiry,
        strikes: [expiry.strikes[mid - 1], expiry.strikes[mid]],
      }),
    });
    assert.ok(
      res.status >= 200 && res.status < 300,
      `${symbol} ${expiry.expiry}: ${res.status} ${(await res.text()).slice(0, 300)}`,
    );
    built++;
  }
  assert.ok(built >= list.length - 2, `built ${built} of ${list.length}`);
});

test("every example request in the reference answers 2xx with a test key", async () => {
  await t.sql`update plans set a_per_minute = 100000, a_per_month = 100000 where id = 'sandbox'`;
  const doc = buildOpenApi(allRoutes) as {
    paths: Record<string, Record<string, { parameters?: { name: string; in: string; example?: string }[] }>>;
  };
  let called = 0;
  for (const [template, ops] of Object.entries(doc.paths)) {
    const get = ops.get;
    // webhook routes need Pro or Enterprise (a test key is Sandbox) and a registration of its own
    // …and one day of history answers only where that day's snapshot exists inside the key's plan window: a fixed
    // example date cannot stay valid (tests/integration/history.test.ts calls it on seeded snapshots)
    // (the live stream's body never ends: tests/integration/stream.test.ts calls it)
    if (
      !get ||
      template.startsWith("/api/v1/alerts") ||
      template === "/api/v1/history/{symbol}/{date}" ||
      template === "/api/v1/stream"
    )
      continue;
    const params = get.parameters ?? [];
    let path = template;
    const query = new URLSearchParams();
    for (const p of params) {
      assert.ok(p.example !== undefined || p.in === "query", `${template}: path parameter ${p.name} has an example`);
      if (p.example === undefined) continue;
      if (p.in === "path") path = path.replace(`{${p.name}}`, encodeURIComponent(p.example));
      else query.set(p.name, p.example);
    }
    const url = `${path}${query.size ? `?${query}` : ""}`;
    const res = await fetch(`${server.baseUrl}${url}`, { headers: { authorization: `Bearer ${key}` } });
    assert.ok(res.status >= 200 && res.status < 300, `${url}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    called++;
  }
  assert.ok(called >= 10, `called ${called} example requests`);
});
