import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { buildFlowEvents, classifySide, eventId, sentimentOf, type FlowContractRef } from "../../lib/analytics/flow";
import { filterFlowEvents, summarizeFlow, clampFlowLimit } from "../../lib/analytics/flow-filters";
import { printMaker, T0 } from "../helpers/flow-prints";

const print = printMaker("TRD-");
const oiOf = (table: Record<string, number | null>) => (t: FlowContractRef) => table[`${t.strike}${t.right}`] ?? null;

test("side classification against the quote in force (bid 1.00 / ask 1.20, mid 1.10)", () => {
  assert.equal(classifySide(1.2, 1.0, 1.2), "ask");
  assert.equal(classifySide(1.25, 1.0, 1.2), "ask");
  assert.equal(classifySide(1.15, 1.0, 1.2), "ask_side");
  assert.equal(classifySide(1.1, 1.0, 1.2), "mid");
  assert.equal(classifySide(1.05, 1.0, 1.2), "bid_side");
  assert.equal(classifySide(1.0, 1.0, 1.2), "bid");
  assert.equal(classifySide(0.95, 1.0, 1.2), "bid");
});

test("trade side with a missing or bad quote is unknown and neutral: bid = ask = 0, NaN bid/ask, crossed quote", () => {
  assert.equal(classifySide(1.2, 0, 0), "unknown");
  assert.equal(classifySide(1.2, Number.NaN, Number.NaN), "unknown");
  assert.equal(classifySide(1.2, Number.NaN, 1.3), "unknown");
  assert.equal(classifySide(1.2, 1.3, 1.1), "unknown"); // crossed
  assert.equal(classifySide(1.2, -0.1, 1.3), "unknown");
  assert.equal(sentimentOf("unknown", "C"), "neutral");
  assert.equal(sentimentOf("unknown", "P"), "neutral");
  // A 200-lot call printed against a 0 / 0 quote is a neutral block, not a bullish one.
  const [e] = buildFlowEvents([print({ ms: 0, size: 200, price: 1.2, bid: 0, ask: 0 })], oiOf({ "200C": 10_000 }));
  assert.deepEqual([e.type, e.side, e.sentiment], ["block", "unknown", "neutral"]);
  // Unknown prints never join a sweep: no direction.
  const legs = [
    print({ ms: 0, bid: 1.3, ask: 1.1, price: 1.2 }),
    print({ ms: 100, bid: 1.3, ask: 1.1, price: 1.2, exchange: "BOX" }),
  ];
  assert.equal(buildFlowEvents(legs, oiOf({ "200C": 10_000 })).length, 0);
});

test("sentiment: bought calls / sold puts bullish, bought puts / sold calls bearish, mid neutral", () => {
  assert.equal(sentimentOf("ask", "C"), "bullish");
  assert.equal(sentimentOf("ask_side", "C"), "bullish");
  assert.equal(sentimentOf("bid", "C"), "bearish");
  assert.equal(sentimentOf("bid_side", "P"), "bullish");
  assert.equal(sentimentOf("ask", "P"), "bearish");
  assert.equal(sentimentOf("mid", "C"), "neutral");
  assert.equal(sentimentOf("mid", "P"), "neutral");
});

test("sweep: 3 prints at the ask on 3 exchanges within 1 s aggregate into one event (hand-computed)", () => {
  const legs = [
    print({ ms: 0, size: 20, price: 2.5, exchange: "CBOE" }),
    print({ ms: 200, size: 30, price: 2.5, exchange: "PHLX" }),
    print({ ms: 800, size: 50, price: 2.55, exchange: "ISE" }),
  ];
  const late = print({ ms: 1500, size: 10, exchange: "CBOE" }); // outside the window anchored at the first leg
  const events = buildFlowEvents([late, ...legs], oiOf({ "200C": 500 }));
  assert.equal(events.length, 1);
  const e = events[0];
  // size 100; avg = (20*2.5 + 30*2.5 + 50*2.55)/100 = 252.5/100 = 2.525; premium = 252.5 * 100 = 25,250 USD
  assert.deepEqual(e, {
    id: eventId(legs.map((l) => l.tradeId)),
    symbol: "AAPL",
    time: "2026-11-20T15:00:00.000Z",
    type: "sweep",
    contract: { expiry: "2026-12-18", strike: 200, right: "call" },
    size: 100,
    avgPrice: 2.525,
    premium: 25250,
    side: "ask",
    sentiment: "bullish",
    exchangeCount: 3,
    legs: 3,
    unusual: false,
    volumeOiRatio: 0.2, // cumulative 100 through the last leg / OI 500
  });
  const json = JSON.stringify(events);
  for (const raw of ["TRD-", "CBOE", "PHLX", "ISE", "AUTO", "tradeId", 'exchange"', "condition"]) {
    assert.ok(!json.includes(raw), `output leaks ${raw}`);
  }
});

test("no sweep: single exchange, opposite directions, or mid prints", () => {
  const sameExchange = [print({ ms: 0, size: 40 }), print({ ms: 100, size: 40 })];
  assert.deepEqual(buildFlowEvents(sameExchange, oiOf({ "200C": 1000 })), []);
  const mixedDirection = [print({ ms: 0, size: 40 }), print({ ms: 100, size: 40, price: 2.4, exchange: "PHLX" })];
  assert.deepEqual(buildFlowEvents(mixedDirection, oiOf({ "200C": 1000 })), []);
  const midPrints = [print({ ms: 0, price: 2.45 }), print({ ms: 100, price: 2.45, exchange: "PHLX" })];
  assert.deepEqual(buildFlowEvents(midPrints, oiOf({ "200C": 1000 })), []);
});

test("sweep with mixed ask / ask_side legs is ask_side; put sweep at the bid is bullish; unusual when volume > OI", () => {
  const mixed = buildFlowEvents(
    [print({ ms: 0, size: 10, price: 2.5 }), print({ ms: 500, size: 10, price: 2.48, exchange: "BOX" })],
    oiOf({ "200C": null }),
  );
  assert.equal(mixed.length, 1);
  assert.equal(mixed[0].side, "ask_side");
  assert.equal(mixed[0].avgPrice, 2.49);
  assert.equal(mixed[0].unusual, false);
  assert.equal(mixed[0].volumeOiRatio, null);

  const puts = buildFlowEvents(
    [
      print({ ms: 0, right: "P", strike: 190, size: 30, price: 1.1, bid: 1.1, ask: 1.2 }),
      print({ ms: 999, right: "P", strike: 190, size: 70, price: 1.05, bid: 1.1, ask: 1.2, exchange: "MIAX" }),
    ],
    oiOf({ "190P": 50 }),
  );
  assert.equal(puts.length, 1);
  assert.equal(puts[0].side, "bid");
  assert.equal(puts[0].sentiment, "bullish");
  assert.equal(puts[0].premium, 10650); // (30*1.10 + 70*1.05) * 100 = (33 + 73.5) * 100
  assert.equal(puts[0].avgPrice, 1.065);
  assert.equal(puts[0].unusual, true);
  assert.equal(puts[0].volumeOiRatio, 2); // 100 / 50
});

test("blocks: size >= 100 contracts or premium >= 100,000 USD", () => {
  const bySize = print({ ms: 0, right: "P", strike: 190, size: 150, price: 3.0, bid: 3.0, ask: 3.2 });
  const byPremium = print({ ms: 60_000, strike: 150, size: 40, price: 25.0, bid: 24.8, ask: 25.2 });
  const small = print({ ms: 120_000, size: 99, price: 1.0, bid: 0.9, ask: 1.0 }); // 9,900 USD, 99 contracts
  const events = buildFlowEvents([bySize, byPremium, small], oiOf({ "190P": 10_000, "150C": 10_000, "200C": 10_000 }));
  assert.deepEqual(
    events.map((e) => [e.type, e.size, e.premium, e.side, e.sentiment, e.legs, e.exchangeCount]),
    [
      ["block", 40, 100000, "mid", "neutral", 1, 1], // 25.00 * 40 * 100, newest first
      ["block", 150, 45000, "bid", "bullish", 1, 1], // 3.00 * 150 * 100, sold puts
    ],
  );
  const custom = buildFlowEvents([small], oiOf({ "200C": 10_000 }), { blockMinContracts: 99 });
  assert.equal(custom.length, 1);
  assert.equal(custom[0].type, "block");
});

test("unusual: cumulative same-New-York-day volume exceeds open interest; yesterday's prints do not count", () => {
  const yesterday = print({ ms: -24 * 3600_000, size: 90, price: 2.45 });
  const first = print({ ms: 0, size: 60, price: 2.45 }); // cum 60 <= 100: no event
  const second = print({ ms: 5_000, size: 50, price: 2.48 }); // cum 110 > 100: unusual
  const events = buildFlowEvents([second, yesterday, first], oiOf({ "200C": 100 }));
  assert.equal(events.length, 1);
  assert.equal(events[0].type, "unusual");
  assert.equal(events[0].unusual, true);
  assert.equal(events[0].volumeOiRatio, 1.1);
  assert.equal(events[0].side, "ask_side");
  assert.equal(events[0].premium, 12400); // 2.48 * 50 * 100
  assert.equal(events[0].time, "2026-11-20T15:00:05.000Z");
  // a block on a contract with volume > OI keeps type block and is flagged
  const bigBlock = buildFlowEvents([print({ ms: 0, size: 300 })], oiOf({ "200C": 200 }));
  assert.equal(bigBlock[0].type, "block");
  assert.equal(bigBlock[0].unusual, true);
  assert.equal(bigBlock[0].volumeOiRatio, 1.5);
});

test("unusual activity counted per contract, not per print: OI 10 and thirty 1-lots make no event; 300 1-lots make one", () => {
  const thirty = Array.from({ length: 30 }, (_, i) => print({ ms: i * 60_000, size: 1, price: 2.45 }));
  const few = buildFlowEvents(thirty, oiOf({ "200C": 10 }));
  assert.equal(few.length, 0, "30 contracts is under the 100-contract minimum");
  assert.equal(summarizeFlow(few).unusualCount, 0);
  const many = Array.from({ length: 300 }, (_, i) => print({ ms: i * 60_000, size: 1, price: 2.45 }));
  const events = buildFlowEvents(many, oiOf({ "200C": 10 }));
  assert.equal(events.length, 1, "one event when the day's volume first reaches the minimum above OI");
  assert.equal(events[0].type, "unusual");
  assert.equal(events[0].volumeOiRatio, 10); // 100th print: 100 / 10
  assert.equal(events[0].time, new Date(T0 + 99 * 60_000).toISOString());
  assert.equal(summarizeFlow(events).unusualCount, 1);
  // The next New York day the contract can be flagged again.
  const nextDay = Array.from({ length: 100 }, (_, i) =>
    print({ ms: 24 * 3600_000 + i * 60_000, size: 1, price: 2.45 }),
  );
  const two = buildFlowEvents([...many, ...nextDay], oiOf({ "200C": 10 }));
  assert.equal(two.length, 2);
  assert.equal(summarizeFlow(two).unusualCount, 2);
});

test("event id is sha256 of the sorted trade ids (first 16 hex), independent of input order", () => {
  const expected = createHash("sha256").update("a\u0000b").digest("hex").slice(0, 16);
  assert.equal(eventId(["b", "a"]), expected);
  assert.match(expected, /^[0-9a-f]{16}$/);
  const a = print({ ms: 0, size: 200 });
  const b = print({ ms: 10, size: 200, strike: 210 });
  const x = buildFlowEvents([a, b], () => 1e6);
  const y = buildFlowEvents([b, a], () => 1e6);
  assert.deepEqual(x, y);
  assert.deepEqual(
    x.map((e) => e.contract.strike),
    [210, 200],
  ); // newest first
});

const ev = (o: Partial<ReturnType<typeof buildFlowEvents>[number]>) => ({
  ...buildFlowEvents([print({ ms: 0, size: 100 })], () => 1e6)[0],
  ...o,
});

test("filterFlowEvents: symbol (case-insensitive), minPremium, type, since, limit; newest first", () => {
  const events = [
    ev({ id: "a", symbol: "AAPL", time: "2026-11-20T15:00:00.000Z", premium: 50_000, type: "block" }),
    ev({ id: "b", symbol: "MSFT", time: "2026-11-20T16:00:00.000Z", premium: 200_000, type: "sweep" }),
    ev({ id: "c", symbol: "AAPL", time: "2026-11-20T17:00:00.000Z", premium: 150_000, type: "sweep" }),
    ev({ id: "d", symbol: "AAPL", time: "2026-11-20T14:00:00.000Z", premium: 9_000, type: "unusual" }),
  ];
  const ids = (f: Parameters<typeof filterFlowEvents>[1]) => filterFlowEvents(events, f).map((e) => e.id);
  assert.deepEqual(ids({}), ["c", "b", "a", "d"]);
  assert.deepEqual(ids({ symbol: "aapl" }), ["c", "a", "d"]);
  assert.deepEqual(ids({ minPremium: 100_000 }), ["c", "b"]);
  assert.deepEqual(ids({ type: "sweep", symbol: "AAPL" }), ["c"]);
  assert.deepEqual(ids({ since: new Date("2026-11-20T15:00:00.000Z") }), ["c", "b", "a"]);
  assert.deepEqual(ids({ limit: 2 }), ["c", "b"]);
  assert.equal(clampFlowLimit(undefined), 50);
  assert.equal(clampFlowLimit(10_000), 500);
  assert.equal(clampFlowLimit(0), 1);
});

test("summarizeFlow: premium by sentiment, net, counts", () => {
  const s = summarizeFlow([
    ev({ sentiment: "bullish", premium: 25_250.1, type: "sweep", unusual: true }),
    ev({ sentiment: "bullish", premium: 45_000, type: "block", unusual: false }),
    ev({ sentiment: "bearish", premium: 100_000, type: "block", unusual: false }),
    ev({
      sentiment: "neutral",
      premium: 12_400,
      type: "unusual",
      unusual: true,
      contract: { expiry: "2026-12-18", strike: 210, right: "call" },
    }),
    ev({
      sentiment: "neutral",
      premium: 1_000,
      type: "unusual",
      unusual: true,
      contract: { expiry: "2026-12-18", strike: 210, right: "call" },
    }),
  ]);
  assert.deepEqual(s, {
    bullishPremium: 70250.1,
    bearishPremium: 100000,
    netPremium: -29749.9,
    sweepCount: 1,
    blockCount: 2,
    unusualCount: 2, // 200C and 210C: two contracts, three unusual events
  });
  assert.deepEqual(summarizeFlow([]), {
    bullishPremium: 0,
    bearishPremium: 0,
    netPremium: 0,
    sweepCount: 0,
    blockCount: 0,
    unusualCount: 0,
  });
});
