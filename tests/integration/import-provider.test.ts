import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { eq, sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { bars, importRuns, optionQuotes } from "../../db/schema";
import type { Bar, OptionQuote } from "../../lib/analytics/types";
import {
  CsvFileProvider,
  importFromProvider,
  ProviderDataError,
  type MarketDataProvider,
} from "../../lib/market/provider";
import { formatImportError, writeRows, type ImportKind, type KindRow } from "../../lib/market/import";

const path = (name: string) => fileURLToPath(new URL(`../fixtures/import/${name}`, import.meta.url));
let t: TestDatabase;
const count = async (table: typeof bars | typeof optionQuotes | typeof importRuns) =>
  (await t.db.select({ n: sql<number>`count(*)::int` }).from(table))[0].n;

before(async () => {
  t = await createTestDatabase("importprov");
});
after(async () => {
  await t?.drop();
});

test("CsvFileProvider feeds the same validated write path, with a since filter", async () => {
  const provider = new CsvFileProvider({ instruments: path("instruments-good.csv"), bars: [path("bars-good.csv")] });
  assert.deepEqual(provider.kinds, ["instruments", "bars"]);
  const inst = await importFromProvider(t.db, provider, "instruments");
  assert.deepEqual([inst.ok, inst.inserted], [true, 5]);
  const recent = await importFromProvider(t.db, provider, "bars", { since: new Date("2024-12-31T00:00:00Z") });
  assert.deepEqual([recent.ok, recent.inserted], [true, 5], recent.errors.map(formatImportError).join("\n"));
  const all = await importFromProvider(t.db, provider, "bars");
  assert.deepEqual([all.inserted, all.unchanged], [2, 5]);
  const runs = await t.db.select().from(importRuns);
  assert.deepEqual(
    runs.map((r) => [r.kind, r.fileName, r.rows]),
    [
      ["instruments", "provider:csv-files", 5],
      ["bars", "provider:csv-files", 5],
      ["bars", "provider:csv-files", 7],
    ],
  );
  await assert.rejects(importFromProvider(t.db, provider, "chain"), /does not supply chain/);
});

test("a provider over an invalid file raises every problem and writes nothing", async () => {
  const provider = new CsvFileProvider({ chain: path("chain-bad.csv") });
  const before = await count(optionQuotes);
  await assert.rejects(importFromProvider(t.db, provider, "chain"), (e: unknown) => {
    assert.ok(e instanceof ProviderDataError);
    assert.equal(e.errors.length, 8);
    assert.equal(formatImportError(e.errors[0]), "line 3: ask (1.10) is below bid (1.20)");
    return true;
  });
  assert.equal(await count(optionQuotes), before);
});

test("writeRows validates vendor rows itself: errors cite the row index, nothing is written", async () => {
  const good: Bar = {
    symbol: "AAPL",
    interval: "1d",
    ts: new Date("2025-01-02T00:00:00Z"),
    open: 248.9,
    high: 249.1,
    low: 241.8,
    close: 243.85,
    volume: 55740700,
  };
  const rows: Bar[] = [
    good,
    { ...good, ts: new Date("2025-01-03T15:00:00Z") },
    { ...good, ts: new Date("2025-01-06T00:00:00Z"), low: 250 },
    { ...good, symbol: "aapl" },
    { ...good, ts: new Date("invalid"), volume: Number.NaN },
    { ...good, symbol: "NOPE", ts: new Date("2025-01-07T00:00:00Z") },
    good,
  ];
  const before = await count(bars);
  const result = await writeRows(t.db, "bars", rows, "live");
  assert.equal(result.ok, false);
  assert.deepEqual(result.errors.map(formatImportError), [
    "line 2: timestamp (2025-01-03T15:00:00.000Z) of a 1d bar must be 00:00 UTC of the session date",
    "line 3: low (250) is above high (249.1)",
    "line 3: open (248.9) is below low (250)",
    "line 3: close (243.85) is below low (250)",
    "line 4: symbol (aapl) is not a valid upper-case symbol (1–6 letters, optional .X or -X class suffix)",
    "line 5: timestamp (invalid date) is not a valid date-time",
    "line 5: volume (NaN) is not a whole number",
    "line 6: symbol NOPE has no row in instruments (live); import it with kind instruments first",
    "line 7: duplicate of line 1 (same symbol AAPL, interval 1d, timestamp 2025-01-02T00:00:00.000Z)",
  ]);
  assert.equal(await count(bars), before);
});

test("large writes are batched and stay idempotent", async () => {
  const rows: OptionQuote[] = [];
  for (let i = 0; i < 2500; i++) {
    const strike = 100 + (i >> 1) * 0.5;
    rows.push({
      symbol: "MSFT",
      asOf: new Date("2025-01-02T21:00:00Z"),
      expiry: "2025-03-21",
      strike,
      right: i % 2 ? "P" : "C",
      bid: 1,
      ask: 1.1,
      last: null,
      volume: i,
      openInterest: 10 * i,
    });
  }
  const vendor: MarketDataProvider = {
    name: "test-vendor",
    kinds: ["chain"],
    async *fetch<K extends ImportKind>(kind: K) {
      for (let i = 0; i < rows.length; i += 700) yield rows.slice(i, i + 700) as unknown as KindRow<K>[];
    },
  };
  const first = await importFromProvider(t.db, vendor, "chain");
  assert.deepEqual([first.ok, first.inserted, first.updated, first.unchanged], [true, 2500, 0, 0]);
  const second = await importFromProvider(t.db, vendor, "chain");
  assert.deepEqual([second.inserted, second.updated, second.unchanged], [0, 0, 2500]);
  const stored = await t.db
    .select({ n: sql<number>`count(*)::int` })
    .from(optionQuotes)
    .where(eq(optionQuotes.symbol, "MSFT"));
  assert.equal(stored[0].n, 2500);
  const empty = await writeRows(t.db, "chain", [], "live");
  assert.deepEqual([empty.ok, empty.inserted], [true, 0]);
});
