import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parseCsvText } from "../../lib/market/import/parse";
import { formatImportError, type ImportKind } from "../../lib/market/import/types";

const fixture = (name: string) => readFileSync(new URL(`../fixtures/import/${name}`, import.meta.url), "utf8");
const messages = (kind: ImportKind, text: string) => parseCsvText(kind, text).errors.map(formatImportError);

test("treasury: published layout, newest date first, blank cells omitted (never zero)", () => {
  const p = parseCsvText("treasury", fixture("treasury-good.csv"));
  assert.deepEqual(p.errors, []);
  assert.equal(p.records, 12);
  assert.equal(p.rows.length, 12 * 13 - 2);
  const at = (date: string, tenor: string) => p.rows.find((r) => r.date === date && r.tenor === tenor);
  assert.deepEqual(at("2024-12-31", "1M"), { date: "2024-12-31", tenor: "1M", yieldPct: 4.4 });
  assert.equal(at("2024-12-31", "30Y")!.yieldPct, 4.78);
  assert.equal(at("2024-12-13", "10Y")!.yieldPct, 4.4);
  assert.equal(at("2024-12-24", "4M"), undefined, "blank 4 Mo cell stores nothing");
  assert.equal(at("2024-12-26", "20Y"), undefined, "blank 20 Yr cell stores nothing");
  assert.ok(p.rows.every((r) => r.yieldPct > 0));
  assert.deepEqual(p.lines.slice(0, 13), Array(13).fill(2), "rows keep the line of their date");
});

test("treasury: 2025 layout with 1.5 Month is accepted and that column ignored", () => {
  const p = parseCsvText("treasury", fixture("treasury-2025-layout.csv"));
  assert.deepEqual(p.errors, []);
  assert.equal(p.rows.length, 3 * 13);
  assert.deepEqual(
    [...new Set(p.rows.map((r) => r.tenor))],
    ["1M", "2M", "3M", "4M", "6M", "1Y", "2Y", "3Y", "5Y", "7Y", "10Y", "20Y", "30Y"],
  );
});

test("treasury: columns are mapped by name (older years without 4 Mo, any order, any case)", () => {
  const p = parseCsvText("treasury", "DATE,30 yr,1 Mo,10 Yr\n01/05/2018,2.81,1.29,2.48\n01/04/2018,,1.28,2.46\n");
  assert.deepEqual(p.errors, []);
  assert.deepEqual(p.rows, [
    { date: "2018-01-05", tenor: "1M", yieldPct: 1.29 },
    { date: "2018-01-05", tenor: "10Y", yieldPct: 2.48 },
    { date: "2018-01-05", tenor: "30Y", yieldPct: 2.81 },
    { date: "2018-01-04", tenor: "1M", yieldPct: 1.28 },
    { date: "2018-01-04", tenor: "10Y", yieldPct: 2.46 },
  ]);
});

test("treasury: every bad line is reported with a specific reason", () => {
  assert.deepEqual(messages("treasury", fixture("treasury-bad.csv")), [
    "line 3: Date (2024-12-30) is not a date in MM/DD/YYYY form",
    "line 4: 3 Yr (abc) is not a number",
    "line 5: duplicate of line 2 (same Date 2024-12-31)",
    "line 6: 10 Yr (45.9) is outside the plausible range -1 to 25 (percent: 4.25 = 4.25 %)",
    "line 7: Date (02/30/2024) is not a valid date",
    "line 8: expected 14 fields as in the header, found 13",
  ]);
});

test("header problems give one error at line 1 naming missing and unknown columns", () => {
  const [t] = messages("treasury", fixture("treasury-bad-header.csv"));
  assert.match(
    t,
    /^line 1: unknown column\(s\): 2 Yrs, Notes\. Expected header for treasury: Date,1 Mo,1\.5 Month,2 Mo/,
  );
  const c = messages("chain", fixture("chain-bad-header.csv"));
  assert.equal(c.length, 1);
  assert.match(c[0], /^line 1: missing column\(s\): as_of, last; unknown column\(s\): asof, iv\./);
  assert.match(messages("treasury", "Date,Foo\n")[0], /unknown column\(s\): Foo/);
  assert.match(messages("treasury", "Date\n01/02/2025\n")[0], /no tenor columns/);
  assert.match(
    messages("bars", "symbol,interval,timestamp,open,high,low,close,volume,volume\n")[0],
    /repeated column\(s\): volume/,
  );
});

test("empty files and header-only files are errors", () => {
  assert.match(
    messages("bars", "")[0],
    /^line 1: file is empty; expected a header line: symbol,interval,timestamp,open,high,low,close,volume$/,
  );
  assert.match(messages("bars", "\uFEFF\r\n")[0], /file is empty/);
  assert.deepEqual(messages("trades", fixture("trades-good.csv").split("\n")[0] + "\n"), [
    "line 1: no data rows after the header",
  ]);
});

test("instruments: symbols upper-cased, quoted names, blank dividend yield = 0, BOM + CRLF", () => {
  const p = parseCsvText("instruments", fixture("instruments-good.csv"));
  assert.deepEqual(p.errors, []);
  assert.deepEqual(
    p.rows.map((r) => r.symbol),
    ["AAPL", "MSFT", "BRK.B", "SPX", "VIX"],
  );
  assert.equal(p.rows[2].name, "Berkshire Hathaway Inc., Class B");
  assert.equal(p.rows[2].dividendYield, 0);
  assert.equal(p.rows[4].name, 'Cboe Volatility Index "VIX"');
  assert.deepEqual(p.rows[3], {
    symbol: "SPX",
    name: "S&P 500 Index",
    sector: "Index",
    kind: "index",
    nextEarningsDate: null,
    dividendYield: 0.0125,
  });
});

test("instruments: bad rows", () => {
  assert.deepEqual(messages("instruments", fixture("instruments-bad.csv")), [
    "line 3: symbol (TOOLONGSYM) is not a valid symbol (1–6 letters, optional .X or -X class suffix)",
    "line 4: name is required",
    "line 5: kind (bond) must be one of equity, etf, index, volatility_index",
    "line 6: next_earnings_date must be blank for kind index",
    "line 7: dividend_yield (2.9) is outside the plausible range 0 to 0.5 (a decimal: 0.015 = 1.5 %)",
    "line 8: duplicate of line 2 (same symbol AAPL)",
    "line 9: next_earnings_date (01/15/2025) is not a date in YYYY-MM-DD form",
  ]);
});

test("instruments: optional earnings_timing column (before_open | after_close, any case; blank = unknown)", () => {
  const header = "symbol,name,sector,kind,next_earnings_date,dividend_yield,earnings_timing\n";
  const p = parseCsvText(
    "instruments",
    header +
      "AAPL,Apple Inc.,Information Technology,equity,2026-01-29,0.0044,after_close\n" +
      "JPM,JPMorgan Chase & Co.,Financials,equity,2026-01-13,0.021,BEFORE_OPEN\n" +
      "MSFT,Microsoft Corporation,Information Technology,equity,2026-01-28,0.0079,\n",
  );
  assert.deepEqual(p.errors, []);
  assert.deepEqual(
    p.rows.map((r) => [r.symbol, r.earningsTiming]),
    [
      ["AAPL", "after_close"],
      ["JPM", "before_open"],
      ["MSFT", undefined],
    ],
  );
  assert.deepEqual(
    messages(
      "instruments",
      header +
        "KO,Coca-Cola Company,Consumer Staples,equity,2026-02-10,0.03,during_lunch\n" +
        "PEP,PepsiCo,Consumer Staples,equity,,0.03,after_close\n" +
        "SPX,S&P 500 Index,Index,index,,0.0125,before_open\n",
    ),
    [
      "line 2: earnings_timing (during_lunch) must be one of before_open, after_close",
      "line 3: earnings_timing must be blank when next_earnings_date is blank",
      "line 4: earnings_timing must be blank when next_earnings_date is blank",
    ],
  );
});

test("bars: daily dates at 00:00 UTC, intraday offsets converted to UTC", () => {
  const p = parseCsvText("bars", fixture("bars-good.csv"));
  assert.deepEqual(p.errors, []);
  assert.deepEqual(
    p.rows.map((r) => `${r.symbol} ${r.interval} ${r.ts.toISOString()}`),
    [
      "AAPL 1d 2024-12-27T00:00:00.000Z",
      "AAPL 1d 2024-12-30T00:00:00.000Z",
      "AAPL 1d 2024-12-31T00:00:00.000Z",
      "AAPL 5m 2024-12-31T14:30:00.000Z",
      "AAPL 5m 2024-12-31T14:35:00.000Z",
      "SPX 1d 2024-12-31T00:00:00.000Z",
      "MSFT 1d 2024-12-31T00:00:00.000Z",
    ],
  );
  assert.deepEqual(p.rows[0], {
    symbol: "AAPL",
    interval: "1d",
    ts: new Date("2024-12-27T00:00:00Z"),
    open: 257.83,
    high: 258.7,
    low: 253.06,
    close: 255.59,
    volume: 42355300,
  });
});

test("bars: bad rows (database checks such as unknown symbols come later)", () => {
  assert.deepEqual(messages("bars", fixture("bars-bad.csv")), [
    "line 3: interval (1h) must be 1d or 5m",
    "line 4: open (257.83) is above high (256.70)",
    "line 5: timestamp (2024-12-31T09:32:00-05:00) is not on a 5-minute boundary (bars are stamped with their start)",
    "line 6: timestamp (2024-12-31T09:35:00) has no time zone; add Z or an offset such as -05:00",
    "line 7: volume (-5) is negative",
    "line 8: volume (12.5) is not a whole number",
    "line 10: duplicate of line 2 (same symbol AAPL, interval 1d, timestamp 2024-12-31T00:00:00.000Z)",
    "line 11: expected 8 fields as in the header, found 7",
  ]);
  assert.match(
    messages(
      "bars",
      "symbol,interval,timestamp,open,high,low,close,volume\nAAPL,1d,2024-12-31T15:00:00Z,1,1,1,1,1\n",
    )[0],
    /must be the session date/,
  );
  assert.match(
    messages("bars", "symbol,interval,timestamp,open,high,low,close,volume\nAAPL,5m,2024-12-31,1,1,1,1,1\n")[0],
    /needs a time and zone for 5m bars/,
  );
  assert.match(
    messages("bars", "symbol,interval,timestamp,open,high,low,close,volume\nAAPL,1d,2024-12-31,10,12,11,11.5,1\n")[0],
    /open \(10\) is below low \(11\)/,
  );
});

test("chain: rights normalised, blank last is null", () => {
  const p = parseCsvText("chain", fixture("chain-good.csv"));
  assert.deepEqual(p.errors, []);
  assert.equal(p.rows.length, 10);
  assert.deepEqual(p.rows.map((r) => r.right).join(""), "CPCPCPCPCP");
  assert.equal(p.rows[5].last, null);
  assert.equal(p.rows[0].asOf.toISOString(), "2024-12-31T21:00:00.000Z");
});

test("chain: bad rows, several reasons on one line", () => {
  assert.deepEqual(messages("chain", fixture("chain-bad.csv")), [
    "line 3: ask (1.10) is below bid (1.20)",
    "line 4: as_of (2024-12-31 16:00) has no time zone; add Z or an offset such as -05:00",
    "line 5: expiry (2024-12-20) is before the as_of date (2024-12-31)",
    "line 6: right (X) must be C, P, call or put",
    "line 7: strike (-5) must be greater than 0",
    "line 7: bid (-0.05) is negative",
    "line 8: duplicate of line 2 (same contract AAPL 2025-01-17 245 C at 2024-12-31T21:00:00.000Z)",
    "line 9: volume (1e3) is not a whole number",
  ]);
});

test("trades: millisecond timestamps, quoted condition with a comma", () => {
  const p = parseCsvText("trades", fixture("trades-good.csv"));
  assert.deepEqual(p.errors, []);
  assert.equal(p.rows[1].ts.toISOString(), "2024-12-31T14:45:12.500Z");
  assert.equal(p.rows[2].symbol, "AAPL");
  assert.equal(p.rows[4].condition, "LATE,OPEN");
  assert.equal(p.rows[0].condition, "");
});

test("trades: bad rows including malformed CSV lines", () => {
  assert.deepEqual(messages("trades", fixture("trades-bad.csv")), [
    "line 3: size (0) must be at least 1",
    "line 4: size (1.5) is not a whole number",
    "line 5: price (0) must be greater than 0",
    "line 6: ask (2.00) is below bid (3.00)",
    "line 7: exchange is required",
    "line 8: duplicate of line 2 (same trade_id T1)",
    "line 10: unexpected quote in unquoted field 10 (quote the whole field and double inner quotes)",
    "line 11: unterminated quoted field (opened on line 11)",
  ]);
});

test("dividends: symbol, ex-date and cash amount per share; bad rows named by line", () => {
  const p = parseCsvText("dividends", fixture("dividends-good.csv"));
  assert.deepEqual(p.errors, []);
  assert.deepEqual(p.rows, [
    { symbol: "AAPL", exDate: "2025-02-10", amount: 0.25 },
    { symbol: "AAPL", exDate: "2025-05-12", amount: 0.26 },
    { symbol: "XOM", exDate: "2025-02-13", amount: 0.99 },
  ]);
  const bad = messages(
    "dividends",
    "symbol,ex_date,amount\nAAPL,2025-02-30,0.25\nAAPL,2025-03-03,0\nAAPL,2025-03-03,-1\nAAPL,2025-05-12,0.26\nAAPL,2025-05-12,0.27\n",
  );
  assert.equal(bad.length, 4, bad.join("\n"));
  assert.match(bad[0], /^line 2: .*ex_date/);
  assert.match(bad[1], /^line 3: .*amount/);
  assert.match(bad[2], /^line 4: .*amount/);
  assert.match(bad[3], /^line 6: duplicate of line 5/);
});
