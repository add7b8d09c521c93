import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { and, eq, sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { bars, importRuns, instruments, optionQuotes, optionTrades, treasuryYields } from "../../db/schema";
import { readMarketVersions } from "../../lib/market/versions";
import { formatImportError, importCsvText, importFile, type ImportKind } from "../../lib/market/import";
import { loadMarketSnapshot } from "../../lib/market/store-read";

const path = (name: string) => fileURLToPath(new URL(`../fixtures/import/${name}`, import.meta.url));
let t: TestDatabase;

before(async () => {
  t = await createTestDatabase("importfiles");
});
after(async () => {
  await t?.drop();
});

/** Row counts of every table an import may write, plus the market versions. */
async function snapshot() {
  const count = async (
    table:
      | typeof bars
      | typeof instruments
      | typeof optionQuotes
      | typeof optionTrades
      | typeof treasuryYields
      | typeof importRuns,
  ) => (await t.db.select({ n: sql<number>`count(*)::int` }).from(table))[0].n;
  return {
    instruments: await count(instruments),
    treasury: await count(treasuryYields),
    bars: await count(bars),
    chain: await count(optionQuotes),
    trades: await count(optionTrades),
    runs: await count(importRuns),
    versions: await readMarketVersions(t.db),
  };
}

async function importGood(kind: ImportKind, file: string, expected: number) {
  const before = await snapshot();
  const first = await importFile(t.db, kind, path(file));
  assert.equal(first.ok, true, first.errors.map(formatImportError).join("\n"));
  assert.deepEqual(
    { env: first.env, file: first.file, inserted: first.inserted, updated: first.updated },
    { env: "live", file, inserted: expected, updated: 0 },
  );
  const mid = await snapshot();
  assert.equal(mid[kind as keyof typeof mid], (before[kind as keyof typeof before] as number) + expected);
  assert.equal(mid.runs, before.runs + 1);
  assert.equal(mid.versions.live, before.versions.live + 1);

  const again = await importFile(t.db, kind, path(file));
  assert.equal(again.ok, true);
  assert.deepEqual([again.inserted, again.updated, again.unchanged], [0, 0, expected], "re-import changes nothing");
  const end = await snapshot();
  assert.equal(end[kind as keyof typeof end], mid[kind as keyof typeof mid], "same row count after re-import");
  return first;
}

async function importBad(kind: ImportKind, file: string): Promise<string[]> {
  const before = await snapshot();
  const report = await importFile(t.db, kind, path(file));
  assert.equal(report.ok, false);
  assert.deepEqual([report.inserted, report.updated, report.unchanged], [0, 0, 0]);
  assert.deepEqual(await snapshot(), before, "nothing written, no run recorded, no version bump");
  return report.errors.map(formatImportError);
}

test("market rows for an unknown symbol are rejected until instruments are imported", async () => {
  const errors = await importBad("bars", "bars-good.csv");
  assert.equal(errors.length, 7);
  assert.equal(
    errors[0],
    "line 2: symbol AAPL has no row in instruments (live); import it with kind instruments first",
  );
});

test("instruments import, idempotently", async () => {
  await importGood("instruments", "instruments-good.csv", 5);
  const [brk] = await t.db
    .select()
    .from(instruments)
    .where(and(eq(instruments.env, "live"), eq(instruments.symbol, "BRK.B")));
  assert.deepEqual(brk, {
    env: "live",
    symbol: "BRK.B",
    name: "Berkshire Hathaway Inc., Class B",
    sector: "Financials",
    kind: "equity",
    nextEarningsDate: "2025-02-22",
    earningsTiming: null, // no earnings_timing column: unknown
    dividendYield: 0,
  });
});

test("treasury import: blank cells omitted, newest-first file, import_runs records the file's sha256", async () => {
  const report = await importGood("treasury", "treasury-good.csv", 154);
  assert.equal(report.rows, 12);
  const rows = await t.db.select().from(treasuryYields).where(eq(treasuryYields.env, "live"));
  assert.equal(new Set(rows.map((r) => r.date)).size, 12);
  const at = (date: string, tenor: string) => rows.find((r) => r.date === date && r.tenor === tenor)?.yieldPct;
  assert.equal(at("2024-12-31", "10Y"), 4.58);
  assert.equal(at("2024-12-13", "3M"), 4.34);
  assert.equal(at("2024-12-24", "4M"), undefined);
  assert.equal(at("2024-12-26", "20Y"), undefined);
  assert.ok(
    rows.every((r) => r.yieldPct > 0),
    "no zero placeholders",
  );
  const sha = createHash("sha256")
    .update(readFileSync(path("treasury-good.csv")))
    .digest("hex");
  const runs = await t.db.select().from(importRuns).where(eq(importRuns.kind, "treasury"));
  assert.equal(runs.length, 2);
  assert.deepEqual(
    runs.map((r) => [r.env, r.fileName, r.sha256, r.rows]),
    [
      ["live", "treasury-good.csv", sha, 12],
      ["live", "treasury-good.csv", sha, 12],
    ],
  );
});

test("bars, chain and trades import idempotently", async () => {
  await importGood("bars", "bars-good.csv", 7);
  await importGood("chain", "chain-good.csv", 10);
  await importGood("trades", "trades-good.csv", 6);
  const [trade] = await t.db.select().from(optionTrades).where(eq(optionTrades.tradeId, "T20241231-000002"));
  assert.equal(trade.ts.toISOString(), "2024-12-31T14:45:12.500Z");
  assert.deepEqual(
    [trade.symbol, trade.right, trade.price, trade.size, trade.bid, trade.ask],
    ["AAPL", "P", 4.4, 10, 4.4, 4.5],
  );
  const quotes = await t.db.select().from(optionQuotes).where(eq(optionQuotes.symbol, "SPX"));
  assert.deepEqual(quotes.map((q) => [q.asOf.toISOString(), q.expiry, q.strike, q.right]).sort(), [
    ["2024-12-31T21:15:00.000Z", "2025-01-17", 5900, "C"],
    ["2024-12-31T21:15:00.000Z", "2025-01-17", 5900, "P"],
  ]);
});

test("a changed value updates only that row", async () => {
  const text = readFileSync(path("chain-good.csv"), "utf8").replace("4.95,5.05,5.00,12877", "4.96,5.05,5.00,12900");
  const report = await importCsvText(t.db, "chain", text, { fileName: "chain-fix.csv" });
  assert.deepEqual([report.ok, report.inserted, report.updated, report.unchanged], [true, 0, 1, 9]);
  const [row] = await t.db
    .select()
    .from(optionQuotes)
    .where(and(eq(optionQuotes.strike, 250), eq(optionQuotes.right, "C"), eq(optionQuotes.expiry, "2025-01-17")));
  assert.deepEqual([row.bid, row.volume], [4.96, 12900]);
});

test("bad files: every bad row reported with its line, nothing written", async () => {
  assert.deepEqual(await importBad("bars", "bars-bad.csv"), [
    "line 3: interval (1h) must be 1d or 5m",
    "line 4: open (257.83) is above high (256.70)",
    "line 5: timestamp (2024-12-31T09:32:00-05:00) is not on a 5-minute boundary (bars are stamped with their start)",
    "line 6: timestamp (2024-12-31T09:35:00) has no time zone; add Z or an offset such as -05:00",
    "line 7: volume (-5) is negative",
    "line 8: volume (12.5) is not a whole number",
    "line 9: symbol ZZZZ has no row in instruments (live); import it with kind instruments first",
    "line 10: duplicate of line 2 (same symbol AAPL, interval 1d, timestamp 2024-12-31T00:00:00.000Z)",
    "line 11: expected 8 fields as in the header, found 7",
  ]);
  const trades = await importBad("trades", "trades-bad.csv");
  assert.equal(trades.length, 9);
  assert.equal(
    trades[6],
    "line 9: symbol ZZZZ has no row in instruments (live); import it with kind instruments first",
  );
  assert.ok((await importBad("chain", "chain-bad.csv")).includes("line 3: ask (1.10) is below bid (1.20)"));
  assert.equal((await importBad("treasury", "treasury-bad.csv")).length, 6);
  assert.equal((await importBad("instruments", "instruments-bad.csv")).length, 7);
});

test("header errors and empty files: one error, nothing written", async () => {
  const header = await importBad("chain", "chain-bad-header.csv");
  assert.equal(header.length, 1);
  assert.match(header[0], /^line 1: missing column\(s\): as_of, last; unknown column\(s\): asof, iv/);
  assert.match(
    (await importBad("treasury", "treasury-bad-header.csv"))[0],
    /^line 1: unknown column\(s\): 2 Yrs, Notes/,
  );
  const before = await snapshot();
  const empty = await importCsvText(t.db, "trades", "");
  assert.deepEqual([empty.ok, empty.rows, empty.errors.length], [false, 0, 1]);
  assert.match(formatImportError(empty.errors[0]), /^line 1: file is empty/);
  assert.deepEqual(await snapshot(), before);
});

test("the demo store is separate: importing into demo leaves live untouched", async () => {
  const live = await snapshot();
  const report = await importFile(t.db, "instruments", path("instruments-good.csv"), {
    env: "demo",
    fileName: "demo-instruments.csv",
  });
  assert.deepEqual([report.ok, report.env, report.file, report.inserted], [true, "demo", "demo-instruments.csv", 5]);
  const after = await snapshot();
  assert.equal(after.instruments, live.instruments + 5);
  assert.equal(after.versions.live, live.versions.live);
  assert.equal(after.versions.demo, live.versions.demo + 1);
});

test("earnings_timing: stored with the instrument, read back by the market loader, cleared by a re-import without it", async () => {
  const header = "symbol,name,sector,kind,next_earnings_date,dividend_yield";
  const withTiming =
    `${header},earnings_timing\n` +
    "ERNA,Earnings After Co,Tech,equity,2026-01-09,0,after_close\n" +
    "ERNB,Earnings Before Co,Tech,equity,2026-01-09,0,before_open\n" +
    "ERNC,Earnings Unknown Co,Tech,equity,2026-01-09,0,\n";
  const first = await importCsvText(t.db, "instruments", withTiming, { fileName: "timing.csv" });
  assert.equal(first.ok, true, first.errors.map(formatImportError).join("\n"));
  const stored = async () =>
    Object.fromEntries(
      (
        await t.db
          .select({ symbol: instruments.symbol, timing: instruments.earningsTiming })
          .from(instruments)
          .where(and(eq(instruments.env, "live"), sql`${instruments.symbol} like 'ERN_'`))
      ).map((r) => [r.symbol, r.timing]),
    );
  assert.deepEqual(await stored(), { ERNA: "after_close", ERNB: "before_open", ERNC: null });
  const snap = await loadMarketSnapshot(t.db, "live");
  const timingOf = (symbol: string) => snap.instruments.find((i) => i.symbol === symbol)?.earningsTiming;
  assert.deepEqual(["ERNA", "ERNB", "ERNC"].map(timingOf), ["after_close", "before_open", undefined]);
  const again = await importCsvText(t.db, "instruments", withTiming, { fileName: "timing.csv" });
  assert.deepEqual([again.inserted, again.updated, again.unchanged], [0, 0, 3], "re-import changes nothing");
  // The timing belongs with the date: a file without the column leaves it unknown.
  const without = await importCsvText(
    t.db,
    "instruments",
    `${header}\nERNA,Earnings After Co,Tech,equity,2026-04-10,0\n`,
    { fileName: "no-timing.csv" },
  );
  assert.deepEqual([without.ok, without.updated], [true, 1]);
  assert.deepEqual(await stored(), { ERNA: null, ERNB: "before_open", ERNC: null });
  const bad = await importCsvText(
    t.db,
    "instruments",
    `${header},earnings_timing\nERND,Bad Co,Tech,equity,2026-01-09,0,amc\n`,
  );
  assert.equal(bad.ok, false);
  assert.deepEqual(bad.errors.map(formatImportError), [
    "line 2: earnings_timing (amc) must be one of before_open, after_close",
  ]);
});
