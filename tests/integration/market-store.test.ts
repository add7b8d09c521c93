import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { advanceDemoMarket, seedDemoMarket } from "../../lib/market/demo-market-writer";
import { loadMarketSnapshot } from "../../lib/market/store-read";
import { DEMO_TICKER_LOCK, startDemoTicker } from "../../lib/market/store-ticker";
import { generateDemoMarket } from "../../lib/market/demo/simulator";
import { dayStart, sessionClose } from "../../lib/market/demo/calendar";
import { readMarketVersions } from "../../lib/market/versions";

const SEED = "store-seed";
const NOW = new Date("2026-11-18T17:42:31.250Z");
const MIN = 60_000;

async function counts(t: TestDatabase): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of ["instruments", "bars", "option_quotes", "option_trades", "treasury_yields"]) {
    const [row] = await t.db.execute<{ n: string }>(
      sql`select count(*)::text as n from ${sql.raw(table)} where env = 'demo'`,
    );
    out[table] = Number(row.n);
  }
  return out;
}

/** Chain snapshots not at a session close (21:00 UTC, or 13:00 New York on an NYSE half-day). */
async function intradaySnapshots(t: TestDatabase): Promise<string[]> {
  const rows = await t.db.execute<{ as_of: string }>(sql`
    select distinct to_char(as_of at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as as_of from option_quotes
    where env = 'demo' order by 1`);
  return rows
    .map((r) => r.as_of)
    .filter((at) => {
      const ms = Date.parse(`${at.replace(" ", "T")}:00Z`);
      return ms !== sessionClose(dayStart(ms));
    });
}

describe("market store (demo)", () => {
  let t: TestDatabase;
  before(async () => {
    t = await createTestDatabase("marketstore");
  });
  after(async () => {
    await t?.drop();
  });

  it("seeds the demo market and reads back the same data", async () => {
    const res = await seedDemoMarket(t.db, { seed: SEED, now: NOW });
    const m = generateDemoMarket({ seed: SEED, now: NOW });
    const snap = await loadMarketSnapshot(t.db, "demo", { now: NOW });
    assert.deepEqual(
      snap.instruments,
      [...m.instruments].sort((a, b) => (a.symbol < b.symbol ? -1 : 1)),
    );
    assert.equal(snap.version, res.version);
    for (const symbol of ["AAPL", "SPX", "VIX"]) {
      assert.deepEqual(
        snap.dailyBarsBySymbol.get(symbol),
        m.dailyBars.filter((b) => b.symbol === symbol),
      );
    }
    const key = (q: { expiry: string; strike: number; right: string }) => `${q.expiry}|${q.strike}|${q.right}`;
    const sortQ = <T extends { expiry: string; strike: number; right: string }>(qs: T[]) =>
      [...qs].sort((a, b) => (key(a) < key(b) ? -1 : 1));
    assert.deepEqual(sortQ(snap.latestChainBySymbol.get("AAPL")!), sortQ(m.chain.filter((q) => q.symbol === "AAPL")));
    assert.equal(snap.latestChainBySymbol.has("VIX"), false);
    const history = snap.chainHistoryBySymbol.get("AAPL")!;
    assert.equal(history.length, 252);
    assert.deepEqual(sortQ(history.flat()).length, m.chainHistory.filter((q) => q.symbol === "AAPL").length);
    assert.deepEqual(
      history.at(-1),
      m.chainHistory.filter((q) => q.symbol === "AAPL" && +q.asOf === +history.at(-1)![0].asOf),
    );
    assert.deepEqual(
      snap.tradesBySymbol.get("TSLA"),
      m.trades.filter((x) => x.symbol === "TSLA"),
    );
    assert.equal(snap.yields.length, 30 * 13);
    assert.deepEqual(
      snap.yields.at(-1),
      [...m.yields].sort((a, b) => (a.date + a.tenor < b.date + b.tenor ? -1 : 1)).at(-1),
    );
    assert.equal(
      +snap.asOfBySymbol.get("AAPL")!,
      Math.max(+m.asOf, +(m.trades.filter((x) => x.symbol === "AAPL").at(-1)?.ts ?? 0)),
    );
  });

  it("the seed leaves planner statistics behind: the engine's first read does not wait for autovacuum", async () => {
    // A table never analyzed has reltuples -1; ANALYZE sets it to its (estimated) row count.
    const rows = await t.db.execute<{ relname: string; reltuples: number }>(sql`
      select relname, reltuples::float8 as reltuples from pg_class
      where relname in ('option_quotes', 'option_trades', 'bars', 'treasury_yields', 'instruments') and relkind in ('r', 'p')`);
    assert.equal(rows.length, 5);
    const c = await counts(t);
    for (const r of rows)
      assert.ok(Number(r.reltuples) >= 0.9 * c[r.relname], `${r.relname}: ${r.reltuples} of ${c[r.relname]}`);
  });

  it("is idempotent: seeding twice leaves the same rows", async () => {
    const before = await counts(t);
    await seedDemoMarket(t.db, { seed: SEED, now: NOW });
    assert.deepEqual(await counts(t), before);
  });

  it("advances in real time: adds trades, keeps one intraday snapshot, keeps EOD history", async () => {
    const c0 = await counts(t);
    await advanceDemoMarket(t.db, { seed: SEED, from: NOW, to: +NOW + 10 * MIN });
    await advanceDemoMarket(t.db, { seed: SEED, from: +NOW + 10 * MIN, to: +NOW + 20 * MIN });
    const c1 = await counts(t);
    assert.ok(c1.option_trades > c0.option_trades, "new trades");
    assert.deepEqual(await intradaySnapshots(t), ["2026-11-18 18:02"]);
    assert.equal(c1.option_quotes, c0.option_quotes, "the old intraday snapshot was replaced, not kept");
    const snap = await loadMarketSnapshot(t.db, "demo");
    const expected = generateDemoMarket({ seed: SEED, now: +NOW + 20 * MIN, symbols: ["NVDA"] });
    assert.deepEqual(
      snap.tradesBySymbol.get("NVDA"),
      expected.trades.filter((x) => x.symbol === "NVDA"),
    );
    assert.deepEqual(
      snap.dailyBarsBySymbol.get("NVDA")!.at(-1),
      expected.dailyBars.filter((b) => b.symbol === "NVDA").at(-1),
    );

    // Through the close: the close keeps a full chain; in the next session it shrinks to the reduced EOD form.
    const close = Date.parse("2026-11-18T21:00:30Z");
    await advanceDemoMarket(t.db, { seed: SEED, from: +NOW + 20 * MIN, to: close });
    assert.deepEqual(await intradaySnapshots(t), []);
    const nextDay = Date.parse("2026-11-19T15:00:00Z");
    await advanceDemoMarket(t.db, { seed: SEED, from: close, to: nextDay });
    assert.deepEqual(await intradaySnapshots(t), ["2026-11-19 15:00"]);
    const [eod] = await t.db.execute<{ n: string }>(sql`
      select count(*)::text as n from option_quotes where env = 'demo' and symbol = 'AAPL' and as_of = '2026-11-18T21:00:00Z'`);
    assert.equal(Number(eod.n), 16);
    const after = await loadMarketSnapshot(t.db, "demo");
    assert.equal(after.chainHistoryBySymbol.get("AAPL")!.length, 253);
    assert.equal(after.dailyBarsBySymbol.get("AAPL")!.at(-1)!.ts.toISOString(), "2026-11-19T00:00:00.000Z");
    const byId = new Set(after.tradesBySymbol.get("AAPL")!.map((x) => x.tradeId));
    assert.equal(byId.size, after.tradesBySymbol.get("AAPL")!.length);
  });

  it("ticks from one process only, holding the advisory lock", async () => {
    let clock = Date.parse("2026-11-19T15:00:00Z");
    const now = () => (clock += 30_000);
    const stopA = startDemoTicker(t, { seed: SEED, intervalMs: 50, now });
    const stopB = startDemoTicker(t, { seed: SEED, intervalMs: 50, now });
    const v0 = (await loadMarketSnapshot(t.db, "demo")).version;
    // Both run until the market has moved more than three versions (not for a fixed time: on a loaded 2-core runner two
    // ticks took 1.5 s, CI 29 Nov 2026), then the lock is checked while both still run.
    const deadline = Date.now() + 60_000;
    while ((await readMarketVersions(t.db)).demo <= v0 + 3 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    // The database filter: other apps on the server tick too.
    const [locks] = await t.db.execute<{ n: string }>(sql`
      select count(*)::text as n from pg_locks
      where locktype = 'advisory' and objid = ${DEMO_TICKER_LOCK} and granted
        and database = (select oid from pg_database where datname = current_database())`);
    assert.equal(Number(locks.n), 1);
    await stopA();
    await stopB();
    const snap = await loadMarketSnapshot(t.db, "demo");
    assert.ok(snap.version > v0 + 3, `version ${v0} → ${snap.version}`);
    assert.equal((await intradaySnapshots(t)).length, 1);
  });
});
