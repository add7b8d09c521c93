/**
 * The trades job from Massive's day file (`cli sync --kind trades --file`): the fixture file
 * (fixtures/massive/flat-files/us_options_opra/trades_v1/2024/03/2024-03-07.csv.gz, the documented columns) imported
 * into a test database with the REST path's rules and quotes from the stored snapshots; skip counts and the run record;
 * a re-run changes nothing; a truncated or corrupt file fails whole and leaves the store as it was. No REST key is set.
 * The same file downloaded by date from a local S3 stand-in (fixtures/massive/fake-flat-files.ts): signed requests, no
 * key in a URL, an error or a run record; a refused signature, a missing file and a cut download write nothing.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { runCli } from "../helpers/cli-process";
import { writeRows } from "../../lib/market/import";
import { importTradesFlatFile } from "../../lib/domain/market-sync-flat-file";
import { readMarketVersions } from "../../lib/market/versions";
import { syncConfig } from "../../lib/market/sync-config";
import { type FakeFlatFiles, startFakeFlatFiles } from "../../fixtures/massive/fake-flat-files";
import type { Instrument, OptionQuote } from "../../lib/analytics/types";

const FIXTURE = "fixtures/massive/flat-files/us_options_opra/trades_v1/2024/03/2024-03-07.csv.gz";
let t: TestDatabase;
let scratch: string;
let s3: FakeFlatFiles;
const S3_KEYS = {
  MASSIVE_S3_ACCESS_KEY_ID: "FLATFILESACCESSKEY01",
  MASSIVE_S3_SECRET_ACCESS_KEY: "flat/files+SECRET/0123456789abcdef",
};

const instrument = (symbol: string, kind: Instrument["kind"]): Instrument => ({
  symbol,
  name: `${symbol} fixture`,
  sector: "Unknown",
  kind,
  nextEarningsDate: null,
  dividendYield: 0,
});
const quote = (
  symbol: string,
  right: "C" | "P",
  strike: number,
  at: string,
  bid: number,
  ask: number,
): OptionQuote => ({
  symbol,
  asOf: new Date(at),
  expiry: "2024-03-15",
  strike,
  right,
  bid,
  ask,
  last: null,
  volume: 10,
  openInterest: 100,
});

const trades = async () =>
  [
    ...(await t.db.execute<{ trade_id: string; ts: string; condition: string; bid: number; ask: number }>(
      sql`select trade_id, to_char(ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') as ts, condition, bid, ask
          from option_trades where env = 'live' order by trade_id`,
    )),
  ].map((r) => ({ ...r }));
const importFile = (file: string) => importTradesFlatFile(t.db, { file, trigger: "cli" });

before(async () => {
  t = await createTestDatabase("flatfile");
  scratch = mkdtempSync(join(tmpdir(), "flatfile-"));
  s3 = await startFakeFlatFiles({
    accessKeyId: S3_KEYS.MASSIVE_S3_ACCESS_KEY_ID,
    secretAccessKey: S3_KEYS.MASSIVE_S3_SECRET_ACCESS_KEY,
    files: { "us_options_opra/trades_v1/2024/03/2024-03-07.csv.gz": readFileSync(FIXTURE) },
  });
  delete process.env.MASSIVE_API_KEY;
  process.env.MARKET_DATA_SYMBOLS = "AAPL,SPY";
  for (const [kind, rows] of [
    ["instruments", [instrument("AAPL", "equity"), instrument("SPY", "etf")]],
    [
      "chain",
      [
        quote("AAPL", "C", 170, "2024-03-07T14:50:00Z", 1.0, 1.1),
        quote("AAPL", "C", 170, "2024-03-07T15:10:00Z", 2.0, 2.1),
        quote("AAPL", "P", 165, "2024-03-07T15:10:00Z", 0.5, 0.55),
        quote("SPY", "C", 510, "2024-03-07T15:10:00Z", 3.0, 3.05),
      ],
    ],
  ] as const) {
    const r = await writeRows(t.db, kind, rows as unknown as never[], "live");
    assert.ok(r.ok, JSON.stringify(r.errors));
  }
});

after(async () => {
  await s3?.close();
  rmSync(scratch, { recursive: true, force: true });
  await t?.drop();
});

const EXPECTED = [
  {
    trade_id: "O:AAPL240315C00170000:1709823600123456789:1001",
    ts: "2024-03-07T15:00:00.123",
    condition: "",
    bid: 2,
    ask: 2.1,
  },
  {
    trade_id: "O:AAPL240315C00170000:1709825400000000002:1003",
    ts: "2024-03-07T15:30:00.000",
    condition: "ISOI",
    bid: 2,
    ask: 2.1,
  },
  {
    trade_id: "O:AAPL240315P00165000:1709825400000000001:1002",
    ts: "2024-03-07T15:30:00.000",
    condition: "MLET",
    bid: 0.5,
    ask: 0.55,
  },
  {
    trade_id: "O:AAPL240315P00165000:1709825400000000006:1004",
    ts: "2024-03-07T15:30:00.000",
    condition: "",
    bid: 0.5,
    ask: 0.55,
  },
  {
    trade_id: "O:SPY240315C00510000:1709825400000000003:2001",
    ts: "2024-03-07T15:30:00.000",
    condition: "LATE",
    bid: 3,
    ask: 3.05,
  },
  {
    trade_id: "O:SPY240315C00510000:1709825400000000004:2002",
    ts: "2024-03-07T15:30:00.000",
    condition: "CANC",
    bid: 3,
    ask: 3.05,
  },
  {
    trade_id: "O:SPY240315C00510000:1709825400000000005:2003",
    ts: "2024-03-07T15:30:00.000",
    condition: "AUCT ISOI",
    bid: 3,
    ask: 3.05,
  },
];
const SKIPPED = {
  "underlying not configured": 1,
  "contract ticker does not parse": 1,
  "SIP time outside the file's date": 1,
  "price not positive": 1,
  "no snapshot quote for the contract": 1,
};

test("the day file's prints of the configured underlyings are written with the REST rules and the nearest quote", async () => {
  const s = await importFile(FIXTURE);
  assert.equal(s.error, null);
  assert.deepEqual(
    [s.ok, s.kind, s.provider, s.date, s.symbols, s.fetched, s.inserted, s.updated],
    [true, "trades", "massive", "2024-03-07", ["AAPL", "SPY"], 12, 7, 0],
  );
  assert.deepEqual(s.skipped, SKIPPED);
  // 15:00:00.123 is nearer the 15:10 snapshot (599.877 s) than the 14:50 one (600.123 s).
  assert.deepEqual(await trades(), EXPECTED);
  const [run] = await t.db.execute<{
    kind: string;
    file_name: string;
    rows: number;
    status: string;
    source: string;
    error: string;
  }>(sql`select kind, file_name, rows, status, source, error from import_runs order by id desc limit 1`);
  assert.deepEqual(
    { ...run },
    {
      kind: "trades",
      file_name: "massive:flat-file:us_options_opra/trades_v1/2024-03-07.csv.gz",
      rows: 12,
      status: "ok",
      source: "massive",
      error:
        "1 skipped: underlying not configured; 1 skipped: contract ticker does not parse; " +
        "1 skipped: SIP time outside the file's date; 1 skipped: price not positive; " +
        "1 skipped: no snapshot quote for the contract",
    },
  );
});

test("importing the same file again changes nothing", async () => {
  const s = await importFile(FIXTURE);
  assert.deepEqual([s.ok, s.inserted, s.updated, s.unchanged], [true, 0, 0, 7]);
  assert.deepEqual(await trades(), EXPECTED);
});

test("a truncated or corrupt file fails whole: nothing written, the run recorded as failed", async () => {
  const bytes = readFileSync(FIXTURE);
  const corrupt = Buffer.from(bytes);
  for (let i = 40; i < 60; i++) corrupt[i] ^= 0xff;
  for (const [name, content] of [
    ["truncated", bytes.subarray(0, bytes.length - 12)],
    ["corrupt", corrupt],
  ] as const) {
    await t.db.execute(sql`delete from option_trades where env = 'live'`);
    const version = (await readMarketVersions(t.db)).live;
    const file = join(scratch, name, "2024-03-07.csv.gz");
    mkdirSync(join(scratch, name), { recursive: true });
    writeFileSync(file, content);
    const s = await importFile(file);
    assert.deepEqual([s.ok, s.failure, s.inserted], [false, "malformed", 0], `${name}: ${s.error}`);
    assert.match(s.error ?? "", /trades flat file unreadable/);
    assert.deepEqual(await trades(), [], `${name} wrote prints`);
    assert.equal((await readMarketVersions(t.db)).live, version, `${name} bumped the version`);
    const [run] = await t.db.execute<{ status: string; error: string; file_name: string }>(
      sql`select status, error, file_name from import_runs order by id desc limit 1`,
    );
    assert.deepEqual(
      [run.status, run.file_name],
      ["failed", "massive:flat-file:us_options_opra/trades_v1/2024-03-07.csv.gz"],
    );
    assert.equal(run.error, s.error);
  }
});

const cli = (...args: string[]) => runCli(t.url, ...args);

test("cli sync --kind trades --file imports the day file and prints the summary; bad uses are refused", async () => {
  const ok = await cli("sync", "--provider", "massive", "--kind", "trades", "--file", FIXTURE, "--symbols", "SPY");
  assert.equal(ok.code, 0, ok.stderr);
  const summary = JSON.parse(ok.stdout);
  assert.deepEqual(
    [summary.ok, summary.kind, summary.date, summary.symbols, summary.fetched],
    [true, "trades", "2024-03-07", ["SPY"], 12],
  );
  // AAPL's 7 parseable rows are not configured for this run, MSFT's 1 never is.
  assert.equal(summary.skipped["underlying not configured"], 8);
  const refusals: [string[], number, RegExp][] = [
    [
      ["--kind", "chain", "--file", FIXTURE],
      2,
      /--file and --flat-file are the trades flat file: only with --kind trades/,
    ],
    [
      ["--kind", "trades", "--file", FIXTURE, "--date", "2024-03-08"],
      1,
      /--date 2024-03-08 disagrees with the file's name \(2024-03-07\)/,
    ],
    [["--kind", "trades", "--file", join(scratch, "2024-03-07.csv.gz")], 1, /cannot read .*ENOENT/],
  ];
  for (const [args, code, message] of refusals) {
    const r = await cli("sync", "--provider", "massive", ...args);
    assert.equal(r.code, code, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
});

test("downloaded by date from the S3 endpoint: signed, streamed, written like the local file; keys never shown", async () => {
  await t.db.execute(sql`delete from option_trades where env = 'live'`);
  const config = (env: Record<string, string>) =>
    syncConfig({ ...process.env, MASSIVE_FLATFILES_URL: s3.url, ...S3_KEYS, ...env });
  const download = (date: string, env: Record<string, string> = {}) =>
    importTradesFlatFile(t.db, { date, trigger: "cli" }, config(env));
  const s = await download("2024-03-07");
  assert.deepEqual([s.ok, s.error, s.fetched, s.inserted], [true, null, 12, 7]);
  assert.deepEqual(s.skipped, SKIPPED);
  assert.deepEqual(await trades(), EXPECTED);
  const [run] = await t.db.execute<{ file_name: string; source: string }>(
    sql`select file_name, source from import_runs order by id desc limit 1`,
  );
  assert.deepEqual(
    { ...run },
    { file_name: "massive:flat-file:us_options_opra/trades_v1/2024/03/2024-03-07.csv.gz", source: "massive" },
  );
  assert.deepEqual(
    s3.requests.map((r) => [r.path, r.signatureValid]),
    [["/flatfiles/us_options_opra/trades_v1/2024/03/2024-03-07.csv.gz", true]],
  );
  for (const r of s3.requests) assert.ok(!r.url.includes("SECRET") && !r.url.includes("ACCESSKEY"), r.url);

  const cases: [string, () => Promise<Awaited<ReturnType<typeof download>>>, string, RegExp][] = [
    [
      "a wrong secret",
      () => download("2024-03-07", { MASSIVE_S3_SECRET_ACCESS_KEY: "wrong/SECRET/key" }),
      "auth",
      /403/,
    ],
    ["no file for the date", () => download("2024-03-08"), "http", /not found \(404\)/],
    [
      "a download cut short",
      () => download("2024-03-07", { MASSIVE_FLATFILES_URL: `${s3.url}/cut` }),
      "malformed",
      /unreadable/,
    ],
  ];
  for (const [name, run, failure, message] of cases) {
    await t.db.execute(sql`delete from option_trades where env = 'live'`);
    const r = await run();
    assert.deepEqual([r.ok, r.failure], [false, failure], `${name}: ${r.error}`);
    assert.match(r.error ?? "", message, name);
    assert.deepEqual(await trades(), [], `${name} wrote prints`);
    const [failed] = await t.db.execute<{ status: string; error: string }>(
      sql`select status, error from import_runs order by id desc limit 1`,
    );
    assert.deepEqual([failed.status, failed.error], ["failed", r.error]);
    for (const key of Object.values(S3_KEYS)) assert.ok(!(r.error ?? "").includes(key), `${name} shows a key`);
  }
  await assert.rejects(
    importTradesFlatFile(t.db, { date: "2024-03-07", trigger: "cli" }, syncConfig({ ...process.env })),
    /MASSIVE_S3_ACCESS_KEY_ID and MASSIVE_S3_SECRET_ACCESS_KEY are not set/,
  );
});
