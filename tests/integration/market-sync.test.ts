/**
 * Market-data sync from Massive against a local fake vendor (fixtures/massive/fake-vendor.ts): every kind flows into
 * the live store through the import path; bad vendor answers (401, 429, 500, malformed JSON, a looping next_url, a
 * negative strike, bid > ask) fail the run or skip the row and leave the store as it was; the key never leaves the
 * Authorization header (not in a query, an error, a run record).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { runCli } from "../helpers/cli-process";
import { startFakeMassive, type FakeVendor } from "../../fixtures/massive/fake-vendor";
import { generateDemoMarket } from "../../lib/market/demo/simulator";
import { newYorkDate } from "../../lib/analytics/exchange-calendar";
import { runMarketSync } from "../../lib/domain/market-sync";
import { marketSyncStatus } from "../../lib/domain/market-sync-status";
import { readMarketVersions } from "../../lib/market/versions";

const KEY = "mk_test_SECRET_0123456789abcdef";
const SYMBOLS = ["AAPL", "SPY"];
let t: TestDatabase;
let vendor: FakeVendor;
let date: string;
const market = generateDemoMarket({ seed: "massive-fake", now: new Date(), symbols: SYMBOLS });

const count = async (table: string) =>
  [...(await t.db.execute<{ n: number }>(sql.raw(`select count(*)::int as n from ${table} where env = 'live'`)))][0].n;
const sync = (kind: "chain" | "bars" | "dividends" | "trades" | "treasury") =>
  runMarketSync(t.db, { kind, symbols: SYMBOLS, date, trigger: "cli" });

before(async () => {
  t = await createTestDatabase("marketsync");
  date = newYorkDate(market.asOf);
  const exDate = new Date(Date.parse(`${date}T00:00:00Z`) + 20 * 86_400_000).toISOString().slice(0, 10);
  vendor = await startFakeMassive({
    apiKey: KEY,
    market,
    pageSize: 100,
    dividends: [{ symbol: "AAPL", exDate, amount: 0.26 }],
  });
  Object.assign(process.env, {
    MASSIVE_API_KEY: KEY,
    MASSIVE_BASE_URL: vendor.url,
    TREASURY_CSV_URL: `${vendor.url}/treasury/par-yields.csv`,
    MARKET_DATA_TRADES_CONTRACTS: "5000",
  });
  date = newYorkDate(market.asOf);
});

after(async () => {
  await vendor?.close();
  await t?.drop();
});

test("treasury, bars, chain, dividends and trades flow into the live store; instruments come from the ticker reference", async () => {
  for (const kind of ["treasury", "bars", "chain", "dividends", "trades"] as const) {
    const s = await sync(kind);
    assert.equal(s.ok, true, `${kind}: ${s.error}`);
    assert.equal(s.error, null);
    assert.ok(s.inserted > 0, `${kind} inserted rows`);
  }
  assert.equal(await count("instruments"), 2);
  assert.equal(await count("cash_dividends"), 1);
  assert.equal(await count("option_quotes"), market.chain.filter((q) => SYMBOLS.includes(q.symbol)).length);
  assert.ok((await count("option_trades")) > 0);
  // The snapshot is as of the vendor's quote time, not the sync's clock.
  const [asOf] = await t.db.execute<{ at: string }>(sql`select max(as_of)::text as at from option_quotes`);
  assert.equal(new Date(asOf.at).getTime(), market.asOf.getTime());
  const runs = await t.db.execute<{ kind: string; status: string; source: string; duration_ms: number | null }>(
    sql`select kind, status, source, duration_ms from import_runs order by id`,
  );
  assert.deepEqual(
    [...runs].map((r) => r.kind),
    ["treasury", "instruments", "bars", "chain", "dividends", "trades"],
  );
  for (const r of runs) assert.deepEqual([r.status, r.source, r.duration_ms !== null], ["ok", "massive", true]);
  // Pagination followed (the chain is more than one page), never with a key in the query.
  assert.ok(vendor.requests.filter((r) => r.path === "/v3/snapshot/options/AAPL").length > 1);
  for (const r of vendor.requests) {
    assert.ok(!/apikey/i.test(r.query), `query of ${r.path} carries a key`);
    if (!r.path.startsWith("/treasury")) assert.equal(r.authorization, `Bearer ${KEY}`);
    else assert.equal(r.authorization, undefined, "the Treasury download gets no vendor key");
  }
  // Re-running a job is idempotent: nothing new, nothing changed.
  const again = await sync("chain");
  assert.deepEqual([again.ok, again.inserted, again.updated], [true, 0, 0]);
  const status = await marketSyncStatus(t.db);
  assert.deepEqual(
    status.kinds.map((k) => [k.kind, k.lastRun?.status]),
    [
      ["chain", "ok"],
      ["bars", "ok"],
      ["trades", "ok"],
      ["dividends", "ok"],
      ["treasury", "ok"],
    ],
  );
  assert.ok(!JSON.stringify(status).includes(KEY));
});

test("bad vendor answers fail the run, record why and leave the live store as it was", async () => {
  const cases: [string, object, string][] = [
    ["500", { status: 500 }, "server"],
    ["malformed JSON", { body: "{not json" }, "malformed"],
    ["looping next_url", { loop: true }, "loop"],
    ["429 beyond the in-place wait", { status: 429, retryAfter: "120" }, "rate_limited"],
    ["401", { status: 401 }, "auth"],
  ];
  for (const [name, fault, failure] of cases) {
    const quotes = await count("option_quotes");
    const version = (await readMarketVersions(t.db)).live;
    vendor.faults.set("/v3/snapshot/options/SPY", fault);
    const s = await sync("chain");
    vendor.faults.clear();
    assert.deepEqual([s.ok, s.failure], [false, failure], `${name}: ${s.error}`);
    assert.ok(s.error && !s.error.includes(KEY), name);
    assert.equal(await count("option_quotes"), quotes, `${name} wrote rows`);
    assert.equal((await readMarketVersions(t.db)).live, version, `${name} bumped the version`);
    if (failure === "rate_limited") assert.equal(s.retryAfterMs, 120_000);
  }
  const failed = await t.db.execute<{ error: string }>(
    sql`select error from import_runs where status = 'failed' order by id`,
  );
  assert.equal(failed.length, cases.length);
  for (const r of failed) assert.ok(r.error.length > 0 && !r.error.includes(KEY));
});

test("a 429 with a short Retry-After is waited out and the run applies", async () => {
  vendor.faults.set("/v3/snapshot/options/AAPL", { status: 429, retryAfter: "1", times: 1 });
  const started = Date.now();
  const s = await sync("chain");
  assert.equal(s.ok, true, s.error ?? "");
  assert.ok(Date.now() - started >= 1000, "Retry-After honoured");
});

test("a negative strike and bid > ask are skipped by rule, counted and recorded; the rest applies", async () => {
  const base = { last_quote: { bid: 1, ask: 1.1, last_updated: Number(BigInt(market.asOf.getTime()) * 1_000_000n) } };
  vendor.extraContracts.set("AAPL", [
    {
      ...base,
      details: {
        contract_type: "call",
        expiration_date: "2099-01-16",
        strike_price: -5,
        ticker: "O:AAPL990116C00005000",
      },
    },
    {
      last_quote: { ...base.last_quote, bid: 2, ask: 1 },
      details: {
        contract_type: "put",
        expiration_date: "2099-01-16",
        strike_price: 150,
        ticker: "O:AAPL990116P00150000",
      },
    },
  ]);
  const s = await sync("chain");
  vendor.extraContracts.clear();
  assert.equal(s.ok, true, s.error ?? "");
  assert.deepEqual(s.skipped, { "strike not positive": 1, "bid above ask": 1 });
  const [run] = await t.db.execute<{ error: string }>(sql`select error from import_runs order by id desc limit 1`);
  assert.equal(run.error, "1 skipped: strike not positive; 1 skipped: bid above ask");
  const [bad] = await t.db.execute<{ n: number }>(
    sql`select count(*)::int as n from option_quotes where expiry = '2099-01-16'`,
  );
  assert.equal(bad.n, 0);
});

const cli = (...args: string[]) => runCli(t.url, ...args);

test("cli sync runs one job and prints its summary; sync status lists the schedule; bad flags are usage errors", async () => {
  const ok = await cli("sync", "--provider", "massive", "--kind", "bars", "--symbols", "AAPL", "--date", date);
  assert.equal(ok.code, 0, ok.stderr);
  const summary = JSON.parse(ok.stdout);
  assert.deepEqual([summary.ok, summary.kind, summary.provider, summary.symbols], [true, "bars", "massive", ["AAPL"]]);
  const status = await cli("sync", "status");
  assert.equal(status.code, 0, status.stderr);
  assert.deepEqual(
    JSON.parse(status.stdout).kinds.map((k: { kind: string }) => k.kind),
    ["chain", "bars", "trades", "dividends", "treasury"],
  );
  assert.ok(!status.stdout.includes(KEY) && !ok.stdout.includes(KEY));
  vendor.faults.set("/v2/aggs", { status: 500 });
  const failed = await cli("sync", "--provider", "massive", "--kind", "bars", "--symbols", "AAPL");
  vendor.faults.clear();
  assert.equal(failed.code, 1);
  assert.match(failed.stderr, /sync bars failed, nothing written: vendor error 500/);
  for (const bad of [
    ["--kind", "quotes"],
    ["--kind", "bars", "--provider", "acme"],
    ["--kind", "bars", "--date", "27/11/2026"],
  ]) {
    const r = await cli("sync", "--provider", "massive", ...bad);
    assert.equal(r.code, 2, `${bad.join(" ")}: ${r.stderr}`);
  }
});
