/**
 * NYSE 13:00 early closes (the audit's cases): on 2025-11-28 (the day after Thanksgiving) at 10:00 New York a 0DTE
 * option has 3 hours left, not 6, so a 0DTE ATM straddle priced at 30 % reads 30 %, not 21.2 %; the weekly listed
 * for Saturday 2025-07-05 rolls back past the July 4 holiday to the 2025-07-03 half-day and expires at 13:00.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { bsmPrice } from "../../lib/analytics/bsm";
import { impliedVol } from "../../lib/analytics/iv";
import { expiryClose, nyseEarlyCloses, sessionCloseHour } from "../../lib/analytics/exchange-calendar";
import { yearFraction } from "../../lib/analytics/vol-surface";

const HOUR = 3_600_000;

test("early closes by rule: July 3 (Mon–Thu), the Friday after Thanksgiving, Christmas Eve (Mon–Thu)", () => {
  assert.deepEqual([...nyseEarlyCloses(2025)].sort(), ["2025-07-03", "2025-11-28", "2025-12-24"]);
  assert.deepEqual([...nyseEarlyCloses(2024)].sort(), ["2024-07-03", "2024-11-29", "2024-12-24"]);
  // 2026: July 4 is a Saturday (holiday observed Friday July 3, no early close); Dec 24 is a Thursday.
  assert.deepEqual([...nyseEarlyCloses(2026)].sort(), ["2026-11-27", "2026-12-24"]);
  // 2023: Dec 24 is a Sunday; July 3 is a Monday.
  assert.deepEqual([...nyseEarlyCloses(2023)].sort(), ["2023-07-03", "2023-11-24"]);
  assert.equal(sessionCloseHour("2025-11-28"), 13);
  assert.equal(sessionCloseHour("2025-11-26"), 16);
});

test("audit: 2025-11-28 at 10:00 New York, a 0DTE close is 3 hours away and the 0DTE ATM IV reads 30 %", () => {
  const asOf = new Date("2025-11-28T15:00:00Z"); // 10:00 EST
  assert.equal(expiryClose("2025-11-28").toISOString(), "2025-11-28T18:00:00.000Z"); // 13:00 EST
  const years = yearFraction(asOf, "2025-11-28");
  assert.ok(Math.abs(years * 365 * 24 - 3) < 1e-9, `${years * 365 * 24} h`);
  // The market prices the straddle over the 3 hours left at 30 %.
  const input = { spot: 100, strike: 100, years: (3 * HOUR) / (365 * 86_400_000), rate: 0.045, dividendYield: 0 };
  const price = bsmPrice({ ...input, vol: 0.3, right: "C" });
  const iv = impliedVol(price, { ...input, years, right: "C" });
  assert.ok(iv !== null && Math.abs(iv - 0.3) < 1e-9, `iv ${iv}`);
});

test("audit: the weekly listed for 2025-07-05 expires at 13:00 New York on the 2025-07-03 half-day", () => {
  assert.equal(expiryClose("2025-07-05").toISOString(), "2025-07-03T17:00:00.000Z"); // 13:00 EDT
  assert.equal(expiryClose("2025-07-04").toISOString(), "2025-07-03T17:00:00.000Z"); // the holiday rolls back too
  assert.equal(expiryClose("2025-07-02").toISOString(), "2025-07-02T20:00:00.000Z"); // a full day: 16:00 EDT
});
