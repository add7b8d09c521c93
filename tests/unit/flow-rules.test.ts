/** The audit's flow cases: condition codes, a locked quote, sweeps and blocks that need size and premium. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { buildFlowEvents, classifySide } from "../../lib/analytics/flow";
import { conditionFlags } from "../../lib/analytics/trade-conditions";
import { printMaker } from "../helpers/flow-prints";

const print = printMaker("R-");
const bigOi = () => 1_000_000;

test("audit: a multi-leg spread print below the bid is not a bearish block (no event at all)", () => {
  const leg = print({ ms: 0, size: 500, price: 2.0, condition: "MLET" });
  assert.deepEqual(buildFlowEvents([leg], bigOi), []);
  // The same print without the multi-leg code would read as a 500-lot sold call block.
  const [plain] = buildFlowEvents([{ ...leg, condition: "AUTO" }], bigOi);
  assert.deepEqual([plain.type, plain.side, plain.sentiment], ["block", "bid", "bearish"]);
});

test("audit: a locked quote (bid = ask > 0) reads mid, not ask", () => {
  assert.equal(classifySide(1.5, 1.5, 1.5), "mid");
  const [e] = buildFlowEvents([print({ ms: 0, size: 300, price: 1.5, bid: 1.5, ask: 1.5 })], bigOi);
  assert.deepEqual([e.side, e.sentiment], ["mid", "neutral"]);
});

test("audit: two 1-lots on two exchanges ($240) are not a sweep", () => {
  const legs = [
    print({ ms: 0, size: 1, price: 1.2, bid: 1.1, ask: 1.2 }),
    print({ ms: 100, size: 1, price: 1.2, bid: 1.1, ask: 1.2, exchange: "PHLX" }),
  ];
  assert.deepEqual(buildFlowEvents(legs, bigOi), []);
});

test("audit: 100 lots at $0.01 ($100) are not a block", () => {
  assert.deepEqual(buildFlowEvents([print({ ms: 0, size: 100, price: 0.01, bid: 0, ask: 0.01 })], bigOi), []);
});

test("cancelled prints are dropped; late and auction prints never join a sweep", () => {
  const cancelled = print({ ms: 0, size: 500, condition: "CANC" });
  assert.deepEqual(buildFlowEvents([cancelled], bigOi), []);
  const legA = print({ ms: 0, size: 30 });
  const legB = print({ ms: 200, size: 30, exchange: "ISE", condition: "OSEQ" });
  const legC = print({ ms: 300, size: 30, exchange: "MIAX", condition: "SLAN" });
  const events = buildFlowEvents([legA, legB, legC], bigOi);
  assert.ok(events.every((e) => e.type !== "sweep"));
  assert.deepEqual(conditionFlags("auto, mlet"), { multiLeg: true, late: false, cancelled: false, auction: false });
});

test("flow filters: side, expiry range and moneyness (against the spot the events were built with)", async () => {
  const { filterFlowEvents } = await import("../../lib/analytics/flow-filters");
  const events = buildFlowEvents(
    [
      print({ ms: 0, size: 200, strike: 180, price: 22, bid: 21.9, ask: 22 }), // itm call, ask
      print({ ms: 1000, size: 200, strike: 201, price: 2.4, bid: 2.4, ask: 2.5, expiry: "2027-01-15" }), // atm, bid
      print({ ms: 2000, size: 200, strike: 230, price: 0.5, bid: 0.45, ask: 0.55, expiry: "2027-03-19" }), // otm, mid
    ],
    bigOi,
    { spot: 200 },
  );
  const strikes = (f: Parameters<typeof filterFlowEvents>[1]) =>
    filterFlowEvents(events, f).map((e) => e.contract.strike);
  assert.deepEqual(strikes({ moneyness: "itm" }), [180]);
  assert.deepEqual(strikes({ moneyness: "atm" }), [201]);
  assert.deepEqual(strikes({ moneyness: "otm" }), [230]);
  assert.deepEqual(strikes({ side: "bid" }), [201]);
  assert.deepEqual(strikes({ expiryFrom: "2027-01-01", expiryTo: "2027-02-01" }), [201]);
  assert.deepEqual(strikes({ expiryFrom: "2027-01-15" }), [230, 201]);
});
