/**
 * The whole path from the vendor to a paying customer: a fake Massive fills the live store (chain, bars, dividends,
 * trades, Treasury), then a live key gets 200 with is_mock / isMockData false and labels from the data's age.
 * Two server processes with MARKET_DATA_PROVIDER=massive run each scheduled job once. The vendor key appears in
 * no server log.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { liveKeyWithFlow } from "../helpers/live-data";
import { startApiServer, type RunningServer } from "../helpers/api-server";
import { startFakeMassive, type FakeVendor } from "../../fixtures/massive/fake-vendor";
import { generateDemoMarket } from "../../lib/market/demo/simulator";
import { newYorkDate } from "../../lib/analytics/exchange-calendar";
import { runMarketSync } from "../../lib/domain/market-sync";
import { dataLabel } from "../../lib/engine/types";
import { seedReferenceData } from "../../lib/domain/seed";
import { endpointCatalogue } from "../../lib/api/routes";

const KEY = "mk_live_SECRET_fedcba9876543210";
const SYMBOLS = ["AAPL", "MSFT"];
const market = generateDemoMarket({ seed: "massive-api", now: new Date(), symbols: SYMBOLS });
let t: TestDatabase;
let vendor: FakeVendor;
let servers: RunningServer[] = [];
let key: string;

const vendorEnv = () => ({
  MARKET_DATA_PROVIDER: "massive",
  MASSIVE_API_KEY: KEY,
  MASSIVE_BASE_URL: vendor.url,
  TREASURY_CSV_URL: `${vendor.url}/treasury/par-yields.csv`,
  MARKET_DATA_SYMBOLS: SYMBOLS.join(","),
  MARKET_DATA_TRADES_CONTRACTS: "5000",
});

before(async () => {
  t = await createTestDatabase("marketsyncapi");
  vendor = await startFakeMassive({ apiKey: KEY, market });
  Object.assign(process.env, { ...vendorEnv(), MARKET_DATA_PROVIDER: undefined });
  delete process.env.MARKET_DATA_PROVIDER;
  const date = newYorkDate(market.asOf);
  for (const kind of ["treasury", "bars", "chain", "dividends", "trades"] as const) {
    const s = await runMarketSync(t.db, { kind, date, trigger: "cli" });
    assert.equal(s.ok, true, `${kind}: ${s.error}`);
  }
  await seedReferenceData(t.db, endpointCatalogue()); // plans and endpoints, as a server's start-up does
  key = await liveKeyWithFlow(t.db);
});

after(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await vendor?.close();
  await t?.drop();
});

async function get(server: RunningServer, path: string) {
  const res = await fetch(server.baseUrl + path, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as any };
}

test("a live key is served the synced data: 200, not mock, labelled by the data's age", async () => {
  // Every minute the Treasury job fires: the second test counts its runs across both processes.
  const env = { ...vendorEnv(), MARKET_DATA_CRON: "treasury=* * * * *", LOG_LEVEL: "info" };
  servers = await Promise.all([startApiServer(t.url, env), startApiServer(t.url, env)]);
  const [a] = servers;
  const expected = dataLabel({ env: "live", entitlement: "live" }, market.asOf, new Date());
  const familyA = ["/api/v1/ticker/AAPL/summary", "/api/v1/signal-score/AAPL", "/api/v1/options-flow?symbol=AAPL"];
  for (const path of familyA) {
    const r = await get(a, path);
    assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.meta.is_mock, false, path);
    assert.equal(r.body.meta.environment, "live", path);
    if (!path.startsWith("/api/v1/options-flow")) assert.equal(r.body.meta.data_freshness, expected, path);
  }
  for (const path of [
    "/api/v1/ai/symbol/AAPL/summary",
    "/api/v1/ai/symbol/MSFT/no-trade",
    "/api/v1/data/yield-curve",
  ]) {
    const r = await get(a, path);
    assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.isMockData, false, path);
    if (!path.endsWith("yield-curve")) assert.equal(r.body.dataLabel, expected, path);
  }
  const closes = market.dailyBars.filter((b) => b.symbol === "AAPL");
  assert.equal((await get(a, "/api/v1/ticker/AAPL/summary")).body.data.price, closes.at(-1)?.close);
});

test("two server processes: each scheduled job runs once; the key is in no log", async () => {
  const treasuryRuns = async () =>
    Number(
      (
        await t.db.execute<{ n: number }>(
          sql`select count(*)::int as n from import_runs where kind = 'treasury' and source = 'massive'`,
        )
      )[0].n,
    );
  // The before() hook's CLI run is the only one not made by the queue.
  const manual = 1;
  // Wait for two cron minutes to be run (pg-boss checks its schedules every 30 s at most).
  const deadline = Date.now() + 180_000;
  while ((await treasuryRuns()) < manual + 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2000));
  // Stop both processes (a graceful stop waits for a job in flight) so the counts below are final.
  await Promise.all(servers.map((s) => s.stop()));
  const runs = (await treasuryRuns()) - manual;
  assert.ok(runs >= 2, `scheduled treasury runs: ${runs}`);
  // pg-boss's own record: each cron minute is one "send-it" slot (a run's start minute is not its cron minute: a
  // slot sent at 12:00:58 may run at 12:01:03, beside the 12:01 slot), and each slot made one job.
  const [slots] = await t.db.execute<{ n: number; distinct_slots: number }>(
    sql`select count(*)::int as n, count(distinct singleton_on)::int as distinct_slots
          from (select singleton_on from pgboss.job where name = '__pgboss__send-it' and singleton_key = 'market-sync-treasury'
                  and state = 'completed'
                union all
                select singleton_on from pgboss.archive where name = '__pgboss__send-it' and singleton_key = 'market-sync-treasury') s`,
  );
  const jobs = [
    ...(await t.db.execute<{ state: string; retries: number }>(
      sql`select state, retry_count::int as retries from pgboss.job where name = 'market-sync-treasury'
          union all
          select state, retry_count::int from pgboss.archive where name = 'market-sync-treasury'`,
    )),
  ];
  assert.equal(slots.distinct_slots, slots.n, "a cron minute was sent twice");
  assert.equal(jobs.length, slots.n, `${jobs.length} treasury jobs from ${slots.n} cron minutes`);
  // A job sent just before the stop may not have started ("created"); every other one completed.
  assert.ok(
    jobs.every((j) => j.state === "completed" || j.state === "created"),
    `job states: ${jobs.map((j) => j.state).join(", ")}`,
  );
  // Each job ran once (plus its retries, none expected here), in one process, and downloaded the file once per run.
  const attempts = jobs.filter((j) => j.state === "completed").reduce((n, j) => n + 1 + j.retries, 0);
  assert.equal(runs, attempts, `${runs} runs for ${jobs.length} jobs`);
  const downloads = vendor.requests.filter((r) => r.path === "/treasury/par-yields.csv").length - manual;
  assert.equal(downloads, runs, "a run downloaded the file more than once, or a download made no run");
  for (const server of servers) assert.ok(!server.output().includes(KEY), "the vendor key is in a server log");
});
