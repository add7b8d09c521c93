/**
 * Each market-data kind's staleness bound (lib/market/sync-schedule.ts STALENESS, judged by lib/market/staleness.ts;
 * docs/market-data.md "Staleness") at hand-picked clock times. The week of 24 Nov 2025 (New York = UTC−5): Wed 26 a
 * normal session (09:30–16:00 = 14:30–21:00 UTC), Thu 27 Thanksgiving (closed), Fri 28 an early close (13:00 = 18:00
 * UTC), then the weekend and Mon 1 Dec.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { STALENESS, SYNC_KINDS, type SyncKind } from "../../lib/market/sync-schedule";
import {
  curveAsOf,
  dailyBarAsOf,
  describeAge,
  describeBound,
  lastDueBusinessDay,
  marketReference,
  staleReason,
} from "../../lib/market/staleness";

const at = (iso: string) => new Date(iso);
const bar = (date: string) => dailyBarAsOf(at(`${date}T00:00:00Z`));
/** Fresh (null) or the message, for `kind` data as of `asOf` at `now`. */
const judge = (kind: SyncKind, asOf: Date, now: string, subject?: string) => staleReason(kind, asOf, at(now), subject);

const WED_1100 = "2025-11-26T16:00:00Z"; // in session
const WED_0945 = "2025-11-26T14:45:00Z"; // 15 minutes after the open
const WED_1005 = "2025-11-26T15:05:00Z"; // 35 minutes after the open
const WED_1700 = "2025-11-26T22:00:00Z"; // after the close
const WED_1830 = "2025-11-26T23:30:00Z"; // after the Treasury's 18:00 publication
const THU_1100 = "2025-11-27T16:00:00Z"; // Thanksgiving
const FRI_1400 = "2025-11-28T19:00:00Z"; // after the 13:00 early close
const SAT_0700 = "2025-11-29T12:00:00Z"; // weekend
const MON_0800 = "2025-12-01T13:00:00Z"; // before the open
const MON_1000 = "2025-12-01T15:00:00Z"; // 30 minutes after the open

test("every kind has an entry: four bounds, and none for dividends (reference data)", () => {
  assert.deepEqual(Object.keys(STALENESS).sort(), [...SYNC_KINDS].sort());
  assert.deepEqual(STALENESS.chain, { rule: "lag", afterMs: 30 * 60_000 });
  assert.deepEqual(STALENESS.trades, { rule: "lag", afterMs: 60 * 60_000 });
  assert.deepEqual(STALENESS.bars, { rule: "session_bar", graceMs: 30 * 60_000 });
  assert.deepEqual(STALENESS.treasury, { rule: "published", dueHour: 18, missedDays: 1 });
  assert.equal(STALENESS.dividends, null);
  assert.equal(describeBound("dividends"), null);
  assert.equal(judge("dividends", at("2020-01-02T21:00:00Z"), WED_1100), null, "dividends are never refused");
  assert.equal(
    describeBound("chain"),
    "at most 30 minutes behind the market (the last close counts for the first 30 minutes of a session)",
  );
  assert.equal(
    describeBound("treasury"),
    "a curve at most 1 business day before the last one due (each business day's is due at 18:00 New York)",
  );
});

test("the market reference: now in a session, the last close outside one and in a session's first minutes", () => {
  assert.equal(marketReference(at(WED_1100), 30 * 60_000).toISOString(), WED_1100.replace("Z", ".000Z"));
  assert.equal(marketReference(at(WED_0945), 30 * 60_000).toISOString(), "2025-11-25T21:00:00.000Z");
  assert.equal(marketReference(at(WED_1005), 30 * 60_000).toISOString(), "2025-11-26T15:05:00.000Z");
  assert.equal(marketReference(at(WED_1700), 30 * 60_000).toISOString(), "2025-11-26T21:00:00.000Z");
  assert.equal(marketReference(at(THU_1100), 30 * 60_000).toISOString(), "2025-11-26T21:00:00.000Z");
  assert.equal(marketReference(at(FRI_1400), 30 * 60_000).toISOString(), "2025-11-28T18:00:00.000Z");
  assert.equal(marketReference(at(SAT_0700), 30 * 60_000).toISOString(), "2025-11-28T18:00:00.000Z");
  assert.equal(marketReference(at(MON_1000), 60 * 60_000).toISOString(), "2025-11-28T18:00:00.000Z");
});

test("chain: at most 30 minutes behind the market", () => {
  assert.equal(judge("chain", at("2025-11-26T15:35:00Z"), WED_1100), null);
  assert.equal(
    judge("chain", at("2025-11-26T15:25:00Z"), WED_1100, "AAPL"),
    "Live chain data for AAPL is 35 minutes old (newest option chain snapshot as of 2025-11-26T15:25:00.000Z); its " +
      "bound is 30 minutes behind the market: data as of 2025-11-26T15:30:00.000Z or newer. The data source has not " +
      "updated it.",
  );
  // The first 30 minutes of a session: the last close still counts; then the day's first runs must have landed.
  assert.equal(judge("chain", at("2025-11-25T21:00:00Z"), WED_0945), null);
  assert.match(judge("chain", at("2025-11-25T20:00:00Z"), WED_0945) ?? "", /^Live chain data is 19 hours old/);
  assert.match(judge("chain", at("2025-11-25T21:00:00Z"), WED_1005) ?? "", /is 18 hours old .*2025-11-26T14:35:00/);
  // After the close the close is expected; on the holiday Wednesday's close; after an early close 13:00.
  assert.equal(judge("chain", at("2025-11-26T20:59:00Z"), WED_1700), null);
  assert.match(judge("chain", at("2025-11-26T20:20:00Z"), WED_1700) ?? "", /is 100 minutes old/);
  assert.equal(judge("chain", at("2025-11-26T20:45:00Z"), THU_1100), null);
  assert.match(judge("chain", at("2025-11-26T20:00:00Z"), THU_1100) ?? "", /is 20 hours old/);
  assert.equal(judge("chain", at("2025-11-28T17:40:00Z"), FRI_1400), null);
  assert.match(judge("chain", at("2025-11-28T17:20:00Z"), FRI_1400) ?? "", /is 100 minutes old/);
  // The weekend: Friday's early close serves until Monday.
  assert.equal(judge("chain", at("2025-11-28T17:45:00Z"), SAT_0700), null);
  assert.match(judge("chain", at("2025-11-28T17:20:00Z"), SAT_0700) ?? "", /is 19 hours old/);
  assert.equal(judge("chain", at("2025-11-28T17:45:00Z"), MON_0800), null);
});

test("trades: at most 60 minutes behind the market (prints arrive every 15 minutes)", () => {
  assert.equal(judge("trades", at("2025-11-26T15:05:00Z"), WED_1100), null);
  assert.equal(
    judge("trades", at("2025-11-26T14:55:00Z"), WED_1100),
    "Live trades data is 65 minutes old (newest options print as of 2025-11-26T14:55:00.000Z); its bound is 60 " +
      "minutes behind the market: data as of 2025-11-26T15:00:00.000Z or newer. The data source has not updated it.",
  );
  assert.equal(judge("trades", at("2025-11-26T20:30:00Z"), WED_1700), null);
  assert.match(judge("trades", at("2025-11-26T19:30:00Z"), THU_1100) ?? "", /is 21 hours old/);
  assert.equal(judge("trades", at("2025-11-28T17:10:00Z"), SAT_0700), null);
  assert.match(judge("trades", at("2025-11-28T16:50:00Z"), SAT_0700) ?? "", /^Live trades data is 19 hours old/);
  // Monday's first hour still accepts Friday's last prints; half an hour later it no longer does.
  assert.equal(judge("trades", at("2025-11-28T17:30:00Z"), MON_1000), null);
  assert.match(judge("trades", at("2025-11-28T17:30:00Z"), "2025-12-01T15:31:00Z") ?? "", /is 70 hours old/);
});

test("bars: the last session's daily bar; the current session's from 30 minutes after the open", () => {
  assert.equal(judge("bars", bar("2025-11-26"), WED_1100), null);
  assert.equal(
    judge("bars", bar("2025-11-25"), WED_1100, "AAPL"),
    "Live bars data for AAPL is 19 hours old (newest daily bar 2025-11-25); its bound needs the daily bar of " +
      "2025-11-26. The data source has not updated it.",
  );
  assert.equal(judge("bars", bar("2025-11-25"), WED_0945), null, "the session opened 15 minutes ago");
  assert.equal(judge("bars", bar("2025-11-26"), WED_1700), null);
  assert.equal(judge("bars", bar("2025-11-26"), THU_1100), null, "Thanksgiving: Wednesday's bar is the last");
  assert.match(judge("bars", bar("2025-11-25"), THU_1100) ?? "", /needs the daily bar of 2025-11-26/);
  assert.equal(judge("bars", bar("2025-11-28"), FRI_1400), null);
  assert.match(judge("bars", bar("2025-11-26"), FRI_1400) ?? "", /needs the daily bar of 2025-11-28/);
  assert.equal(judge("bars", bar("2025-11-28"), SAT_0700), null);
  assert.match(judge("bars", bar("2025-11-26"), SAT_0700) ?? "", /is 63 hours old .*needs the daily bar of 2025-11-28/);
  assert.equal(judge("bars", bar("2025-11-28"), MON_0800), null, "before Monday's open Friday's bar is the last");
  assert.match(judge("bars", bar("2025-11-28"), MON_1000) ?? "", /needs the daily bar of 2025-12-01/);
});

test("treasury: the curve of the last business day due at 18:00 New York, or of the one before", () => {
  assert.equal(lastDueBusinessDay(at(WED_1100), 18), "2025-11-25");
  assert.equal(lastDueBusinessDay(at(WED_1830), 18), "2025-11-26");
  assert.equal(lastDueBusinessDay(at(THU_1100), 18), "2025-11-26");
  assert.equal(lastDueBusinessDay(at(FRI_1400), 18), "2025-11-26");
  assert.equal(lastDueBusinessDay(at(SAT_0700), 18), "2025-11-28");
  assert.equal(lastDueBusinessDay(at(MON_1000), 18), "2025-11-28");
  assert.equal(judge("treasury", curveAsOf("2025-11-24"), WED_1100), null);
  assert.equal(
    judge("treasury", curveAsOf("2025-11-21"), WED_1100),
    "Live treasury data is 5 days old (newest yield curve 2025-11-21); its bound needs the yield curve of 2025-11-24 " +
      "or a later one. The data source has not updated it.",
  );
  // Past 18:00 Wednesday's curve is due: Monday's is now two behind.
  assert.match(judge("treasury", curveAsOf("2025-11-24"), WED_1830) ?? "", /is 51 hours old .*of 2025-11-25 or/);
  assert.equal(judge("treasury", curveAsOf("2025-11-25"), WED_1830), null);
  // No curve is due for Thanksgiving; before Friday's 18:00 Wednesday's is the last one due.
  assert.equal(judge("treasury", curveAsOf("2025-11-25"), THU_1100), null);
  assert.equal(judge("treasury", curveAsOf("2025-11-25"), FRI_1400), null);
  assert.match(judge("treasury", curveAsOf("2025-11-24"), FRI_1400) ?? "", /needs the yield curve of 2025-11-25/);
  assert.equal(judge("treasury", curveAsOf("2025-11-26"), SAT_0700), null);
  assert.match(judge("treasury", curveAsOf("2025-11-25"), SAT_0700) ?? "", /needs the yield curve of 2025-11-26/);
  assert.equal(judge("treasury", curveAsOf("2025-11-26"), MON_1000), null);
});

test("ages are told in minutes, hours or days", () => {
  assert.equal(describeAge(60_000), "1 minute");
  assert.equal(describeAge(119 * 60_000), "119 minutes");
  assert.equal(describeAge(71 * 3_600_000), "71 hours");
  assert.equal(describeAge(5 * 86_400_000), "5 days");
  assert.equal(describeAge(-5000), "0 minutes");
});
