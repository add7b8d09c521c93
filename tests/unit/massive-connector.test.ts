/** The Massive connector's pure parts: OCC tickers, the condition mapping, row mappers, the schedule's windows. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { fromNanos, occTicker, parseOccTicker, rootMismatch, underlyingOfRoot } from "../../lib/market/massive/occ";
import { conditionText, MASSIVE_OPTION_CONDITIONS } from "../../lib/market/massive/conditions";
import { barRows, chainRows, dividendRows, instrumentFromTicker, tradeRows } from "../../lib/market/massive/map";
import { parseVendorJson, retryAfterMs } from "../../lib/market/massive/client";
import { conditionFlags } from "../../lib/analytics/trade-conditions";
import { expectedAsOf, inWindow, syncSchedule } from "../../lib/market/sync-schedule";
import { staleReason } from "../../lib/market/staleness";

test("OCC tickers parse, round-trip and refuse what is not one", () => {
  assert.deepEqual(parseOccTicker("O:AAPL230616C00150000"), {
    root: "AAPL",
    expiry: "2023-06-16",
    right: "C",
    strike: 150,
  });
  assert.deepEqual(parseOccTicker("O:SPY251219P00412500"), {
    root: "SPY",
    expiry: "2025-12-19",
    right: "P",
    strike: 412.5,
  });
  assert.equal(occTicker("SPY", "2025-12-19", "P", 412.5), "O:SPY251219P00412500");
  for (const bad of [
    "AAPL230616C00150000",
    "O:AAPL230231C00150000",
    "O:AAPL230616X00150000",
    "O:AAPL230616C00000000",
    "O:TOOLONGX230616C00150000",
  ])
    assert.equal(parseOccTicker(bad), null, bad);
});

test("nanosecond timestamps convert exactly to the millisecond", () => {
  assert.equal(fromNanos("1700000000123456789")?.toISOString(), "2023-11-14T22:13:20.123Z");
  const parsed = parseVendorJson<{ results: { sip_timestamp: string; price: number }[] }>(
    '{"results":[{"sip_timestamp": 1700000000123456789,"price":1.5}]}',
  );
  assert.equal(parsed.results[0].sip_timestamp, "1700000000123456789", "nanoseconds kept exact through JSON");
  assert.equal(parsed.results[0].price, 1.5);
  assert.equal(fromNanos(1_700_000_000_123_000)?.getTime(), 1_700_000_000);
  assert.equal(fromNanos("not-a-time"), null);
  assert.equal(fromNanos(-5), null);
});

test("every documented condition id maps onto the flow rules' flags", () => {
  const flags = (ids: number[]) => conditionFlags(conditionText(ids));
  assert.deepEqual(flags([232]), { multiLeg: true, late: false, cancelled: false, auction: false });
  assert.deepEqual(flags([233]), { multiLeg: true, late: false, cancelled: false, auction: true });
  assert.deepEqual(flags([227]), { multiLeg: false, late: false, cancelled: false, auction: true });
  assert.deepEqual(flags([204]), { multiLeg: false, late: true, cancelled: false, auction: false });
  assert.deepEqual(flags([201]), { multiLeg: false, late: false, cancelled: true, auction: false });
  assert.deepEqual(flags([209]), { multiLeg: false, late: false, cancelled: false, auction: false });
  assert.equal(conditionText([219, 209]), "ISOI");
  assert.equal(conditionText([228]), "AUCT ISOI");
  assert.equal(conditionText([999]), "C999");
  const ids = MASSIVE_OPTION_CONDITIONS.map((c) => c.id);
  assert.equal(new Set(ids).size, ids.length, "one row per id");
  for (const c of MASSIVE_OPTION_CONDITIONS) assert.ok(c.categories.length > 0 && c.name, String(c.id));
});

const NS = (iso: string) => Number(BigInt(Date.parse(iso)) * 1_000_000n);
const contract = (ticker: string, strike: number, type: string, bid: number, ask: number, at: string) => ({
  details: {
    ticker,
    strike_price: strike,
    contract_type: type,
    expiration_date: parseOccTicker(ticker)?.expiry ?? "2030-01-18",
  },
  last_quote: { bid, ask, last_updated: NS(at) },
  day: { volume: 12 },
  open_interest: 340,
  underlying_asset: { price: 151.2 },
});

test("an option root names its underlying: index weeklies alias, adjusted roots are refused", () => {
  assert.equal(underlyingOfRoot("AAPL"), "AAPL");
  assert.equal(underlyingOfRoot("SPXW"), "SPX");
  assert.equal(underlyingOfRoot("NDXP"), "NDX");
  assert.equal(underlyingOfRoot("AAPL1"), null);
  const occ = (t: string) => parseOccTicker(t) ?? assert.fail(t);
  assert.equal(rootMismatch(occ("O:SPXW301220C05000000"), "SPX"), null);
  assert.equal(rootMismatch(occ("O:SPX301220C05000000"), "SPX"), null);
  assert.equal(rootMismatch(occ("O:AAPL1301220C00150000"), "AAPL"), "adjusted contract (non-standard deliverable)");
  assert.equal(rootMismatch(occ("O:MSFT301220C00150000"), "AAPL"), "contract of another underlying");
  // In a chain: an adjusted contract and another underlying's are skipped by rule; SPXW is SPX's.
  const m = chainRows("AAPL", [
    contract("O:AAPL300118C00150000", 150, "call", 3.1, 3.3, "2029-12-03T15:00:00Z"),
    contract("O:AAPL1300118C00150000", 150, "call", 3.1, 3.3, "2029-12-03T15:00:00Z"),
    contract("O:MSFT300118C00150000", 150, "call", 3.1, 3.3, "2029-12-03T15:00:00Z"),
  ]);
  assert.equal(m.rows.length, 1);
  assert.deepEqual(m.skipped, {
    "adjusted contract (non-standard deliverable)": 1,
    "contract of another underlying": 1,
  });
  assert.equal(
    chainRows("SPX", [contract("O:SPXW300118C05000000", 5000, "call", 3, 3.3, "2029-12-03T15:00:00Z")]).rows.length,
    1,
  );
});

test("a chain snapshot is as of its newest quote; bad contracts are skipped by rule", () => {
  const m = chainRows("AAPL", [
    contract("O:AAPL300118C00150000", 150, "call", 3.1, 3.3, "2029-12-03T15:00:00Z"),
    contract("O:AAPL300118P00150000", 150, "put", 2.9, 3.0, "2029-12-03T15:04:59Z"),
    contract("O:AAPL300118C00005000", -5, "call", 1, 1.1, "2029-12-03T15:00:00Z"),
    contract("O:AAPL300118P00160000", 160, "put", 2, 1, "2029-12-03T15:00:00Z"),
    contract("O:AAPL300118C00170000", 170, "put", 1, 1.2, "2029-12-03T15:00:00Z"),
    {
      details: {
        ticker: "O:AAPL300118C00180000",
        strike_price: 180,
        contract_type: "call",
        expiration_date: "2030-01-18",
      },
    },
  ]);
  assert.equal(m.rows.length, 2);
  for (const r of m.rows) assert.equal(r.asOf.toISOString(), "2029-12-03T15:04:59.000Z");
  assert.deepEqual(m.rows[0], {
    symbol: "AAPL",
    asOf: m.rows[0].asOf,
    expiry: "2030-01-18",
    strike: 150,
    right: "C",
    bid: 3.1,
    ask: 3.3,
    last: null,
    volume: 12,
    openInterest: 340,
  });
  assert.deepEqual(m.skipped, {
    "strike not positive": 1,
    "bid above ask": 1,
    "contract type does not match its ticker": 1,
    "no quote": 1,
  });
  assert.equal(m.underlyingPrice, 151.2);
});

test("bars take the New York session date of t; dividends keep cash in USD; tickers map their type", () => {
  const b = barRows("AAPL", [
    { o: 10, h: 11, l: 9, c: 10.5, v: 1000, t: Date.parse("2025-01-17T05:00:00Z") },
    { o: 10, h: 9, l: 9, c: 10, v: 1, t: 0 },
  ]);
  assert.equal(b.rows[0].ts.toISOString(), "2025-01-17T00:00:00.000Z");
  assert.deepEqual(b.skipped, { "prices out of order": 1 });
  const d = dividendRows("AAPL", [
    { ex_dividend_date: "2025-02-10", cash_amount: 0.25, dividend_type: "CD", currency: "USD" },
    { ex_dividend_date: "2025-02-10", cash_amount: 1, dividend_type: "SC", currency: "USD" },
    { ex_dividend_date: "2025-03-10", cash_amount: 0.5, dividend_type: "LT" },
    { ex_dividend_date: "2025-04-10", cash_amount: 0.5, dividend_type: "CD", currency: "CAD" },
  ]);
  assert.deepEqual(d.rows, [{ symbol: "AAPL", exDate: "2025-02-10", amount: 1.25 }]);
  assert.deepEqual(d.skipped, { "not a cash dividend": 1, "not in USD": 1 });
  assert.equal((instrumentFromTicker("SPY", { name: "SPDR S&P 500", type: "ETF" }) as { kind: string }).kind, "etf");
  assert.match(String(instrumentFromTicker("X", { name: "x", type: "WARRANT" })), /not an equity/);
});

test("prints keep their exact SIP time in the id and take the nearest snapshot quote", () => {
  const m = tradeRows(
    "AAPL",
    [
      {
        ticker: "O:AAPL300118C00150000",
        conditions: [233],
        exchange: 312,
        price: 3.2,
        size: 10,
        sip_timestamp: "1890000000123456789",
        sequence_number: 7,
      },
      { ticker: "O:AAPL300118C00150000", price: 0, size: 1, sip_timestamp: 1 },
      { ticker: "O:NOPE", price: 1, size: 1, sip_timestamp: 1 },
    ],
    () => ({ bid: 3.1, ask: 3.3 }),
  );
  assert.equal(m.rows[0].tradeId, "O:AAPL300118C00150000:1890000000123456789:7");
  assert.equal(m.rows[0].ts.getTime(), 1890000000123);
  assert.deepEqual([m.rows[0].condition, m.rows[0].exchange, m.rows[0].bid], ["MLET AUCT", "312", 3.1]);
  assert.deepEqual(m.skipped, { "price not positive": 1, "contract ticker does not parse": 1 });
});

test("Retry-After as seconds or an HTTP date", () => {
  assert.equal(retryAfterMs("3"), 3000);
  assert.equal(retryAfterMs(new Date(10_000).toUTCString(), 4000), 6000);
  assert.equal(retryAfterMs(null), 1000);
});

test("session windows follow the exchange calendar, early closes included", () => {
  // Wed 26 Nov 2025, a normal session; Fri 28 Nov 2025 closes at 13:00; Thu 27 Nov 2025 is a holiday.
  assert.equal(inWindow("session", new Date("2025-11-26T15:00:00Z")), true);
  assert.equal(inWindow("session", new Date("2025-11-26T14:00:00Z")), false);
  assert.equal(inWindow("session", new Date("2025-11-28T18:05:00Z")), true);
  assert.equal(inWindow("session", new Date("2025-11-28T18:30:00Z")), false);
  assert.equal(inWindow("session", new Date("2025-11-27T16:00:00Z")), false);
  assert.equal(inWindow("after_close", new Date("2025-11-28T18:20:00Z")), true);
  assert.equal(inWindow("after_close", new Date("2025-11-26T21:20:00Z")), true);
  // Saturday: the expected data is Friday's (early) close.
  assert.equal(expectedAsOf(new Date("2025-11-29T12:00:00Z")).toISOString(), "2025-11-28T18:00:00.000Z");
  assert.equal(staleReason("chain", new Date("2025-11-28T18:00:00Z"), new Date("2025-11-29T12:00:00Z")), null);
  assert.match(
    staleReason("chain", new Date("2025-11-26T21:00:00Z"), new Date("2025-11-28T16:00:00Z")) ?? "",
    /Live chain data is 43 hours old/,
  );
  assert.throws(() => syncSchedule("chain=bad"), /MARKET_DATA_CRON/);
  assert.equal(syncSchedule("treasury=* * * * *").find((e) => e.kind === "treasury")?.window, "always");
});
