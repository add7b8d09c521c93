import { test } from "node:test";
import assert from "node:assert/strict";
import {
  expiryClose,
  isTradingDay,
  newYorkDate,
  newYorkInstant,
  nyseHolidays,
  tradingDayOnOrBefore,
} from "../../lib/analytics/exchange-calendar";

test("NYSE full-day holidays by rule match the published 2026 and 2027 calendars", () => {
  assert.deepEqual(
    [...nyseHolidays(2026)],
    [
      "2026-01-01",
      "2026-01-19",
      "2026-02-16",
      "2026-04-03",
      "2026-05-25",
      "2026-06-19",
      "2026-07-03",
      "2026-09-07",
      "2026-11-26",
      "2026-12-25",
    ],
  );
  assert.deepEqual(
    [...nyseHolidays(2027)],
    [
      "2027-01-01",
      "2027-01-18",
      "2027-02-15",
      "2027-03-26",
      "2027-05-31",
      "2027-06-18",
      "2027-07-05",
      "2027-09-06",
      "2027-11-25",
      "2027-12-24",
    ],
  );
});

test("a Saturday New Year's Day is not observed on the Friday before; Juneteenth only from 2022", () => {
  assert.ok(!nyseHolidays(2021).has("2021-12-31"));
  assert.ok(!nyseHolidays(2022).has("2021-12-31") && !nyseHolidays(2022).has("2022-01-01"));
  assert.ok(isTradingDay("2021-12-31"));
  assert.ok(!nyseHolidays(2021).has("2021-06-18") && nyseHolidays(2022).has("2022-06-20"));
});

test("expiry close is 16:00 New York: 21:00 UTC in winter, 20:00 UTC in summer, rolled back over weekends and holidays", () => {
  assert.equal(expiryClose("2026-01-16").toISOString(), "2026-01-16T21:00:00.000Z");
  assert.equal(expiryClose("2026-07-17").toISOString(), "2026-07-17T20:00:00.000Z");
  assert.equal(expiryClose("2026-03-09").toISOString(), "2026-03-09T20:00:00.000Z", "first Monday of daylight saving");
  assert.equal(expiryClose("2026-11-02").toISOString(), "2026-11-02T21:00:00.000Z", "first Monday after it ends");
  assert.equal(tradingDayOnOrBefore("2026-04-03"), "2026-04-02", "Good Friday");
  assert.equal(tradingDayOnOrBefore("2026-12-27"), "2026-12-24", "Sunday after Christmas");
});

test("the New York date of an instant: 03:00 UTC is still the previous evening in New York", () => {
  assert.equal(newYorkDate(new Date("2026-01-16T03:00:00Z")), "2026-01-15");
  assert.equal(newYorkDate(new Date("2026-01-16T05:00:00Z")), "2026-01-16");
  assert.equal(newYorkDate(new Date("2026-07-16T03:59:59Z")), "2026-07-15");
  assert.equal(newYorkDate(new Date("2026-07-16T04:00:00Z")), "2026-07-16");
});

test("New York dates agree with Intl at every instant around the daylight-saving changes and at random instants (the per-hour offset cache is exact)", () => {
  const intl = new Intl.DateTimeFormat("en-CA", {
    timeZone: "America/New_York",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  });
  const instants: number[] = [];
  // 2026's changes: 2026-03-08 07:00 UTC (to EDT) and 2026-11-01 06:00 UTC (to EST); New York midnight is 04:00/05:00 UTC.
  for (const change of [Date.UTC(2026, 2, 8, 7), Date.UTC(2026, 10, 1, 6)]) {
    for (let dt = -26 * 3_600_000; dt <= 26 * 3_600_000; dt += 15 * 60_000) instants.push(change + dt, change + dt - 1);
  }
  let x = 12345;
  for (let i = 0; i < 2000; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    instants.push(Date.UTC(2020, 0, 1) + Math.floor((x / 2 ** 31) * 10 * 365 * 86_400_000));
  }
  for (const t of instants) assert.equal(newYorkDate(new Date(t)), intl.format(new Date(t)), new Date(t).toISOString());
  assert.equal(
    newYorkInstant("2026-03-08", 12).toISOString(),
    "2026-03-08T16:00:00.000Z",
    "noon on the day clocks spring forward is EDT",
  );
  assert.equal(
    newYorkInstant("2026-11-01", 12).toISOString(),
    "2026-11-01T17:00:00.000Z",
    "noon on the day clocks fall back is EST",
  );
});

test("unscheduled closures since 2000 are not sessions (2025-01-09, day of mourning), and one can be added", async () => {
  const { isTradingDay, addUnscheduledClosure, NYSE_UNSCHEDULED_CLOSURES, tradingDayOnOrBefore } = await import(
    "../../lib/analytics/exchange-calendar"
  );
  assert.equal(isTradingDay("2025-01-09"), false);
  assert.equal(tradingDayOnOrBefore("2025-01-09"), "2025-01-08");
  for (const d of NYSE_UNSCHEDULED_CLOSURES) assert.equal(isTradingDay(d), false, d);
  assert.equal(isTradingDay("2031-03-04"), true);
  addUnscheduledClosure("2031-03-04");
  assert.equal(isTradingDay("2031-03-04"), false);
  assert.throws(() => addUnscheduledClosure("2031-02-30"), RangeError);
});
