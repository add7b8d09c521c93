/**
 * The exchange's clock: America/New_York via Intl (daylight saving included), NYSE full-day holidays and 13:00 early
 * closes computed by rule, so expiry times, "today" and day counts follow New York, not UTC.
 */
import { BoundedMemo } from "../util/bounded-memo";

export const EXCHANGE_TIME_ZONE = "America/New_York";
/** Listed US equity options stop trading at 16:00 New York time. */
export const EXPIRY_CLOSE_LOCAL_HOUR = 16;
/** On NYSE early-close days (see nyseEarlyCloses) the session, and options trading, end at 13:00 New York time. */
export const EARLY_CLOSE_LOCAL_HOUR = 13;
const MS_PER_DAY = 86_400_000;

const parts = new Intl.DateTimeFormat("en-US", {
  timeZone: EXCHANGE_TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

const HOUR_MS = 3_600_000;
/** Offsets by UTC hour: New York's offset is a whole number of hours and changes only on a UTC hour boundary. */
const offsetByHour = new BoundedMemo<number, number>(100_000);

/** Offset of New York from UTC during UTC hour `hour`, in ms. */
function offsetOfHour(hour: number): number {
  const start = hour * HOUR_MS;
  const p = Object.fromEntries(parts.formatToParts(new Date(start)).map((x) => [x.type, x.value]));
  return Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second) - start;
}

/** Offset of New York from UTC at instant `t`, in ms (−5 h in winter, −4 h under daylight saving). */
function offsetMs(t: number): number {
  return offsetByHour.get(Math.floor(t / HOUR_MS), offsetOfHour);
}

/** New York wall-clock fields of an instant. */
function local(t: number): { y: number; m: number; d: number; h: number; mi: number; s: number } {
  const w = new Date(t + offsetMs(t));
  return {
    y: w.getUTCFullYear(),
    m: w.getUTCMonth() + 1,
    d: w.getUTCDate(),
    h: w.getUTCHours(),
    mi: w.getUTCMinutes(),
    s: w.getUTCSeconds(),
  };
}

/** The instant a New York wall-clock time (date YYYY-MM-DD, hour) occurs. */
export function newYorkInstant(date: string, hour: number): Date {
  const [y, m, d] = date.split("-").map(Number);
  const guess = Date.UTC(y, m - 1, d, hour);
  const first = guess - offsetMs(guess);
  return new Date(guess - offsetMs(first));
}

/** The New York calendar date (YYYY-MM-DD) of an instant. */
export function newYorkDate(t: Date): string {
  const l = local(t.getTime());
  return `${l.y}-${String(l.m).padStart(2, "0")}-${String(l.d).padStart(2, "0")}`;
}

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const nthWeekday = (y: number, m: number, weekday: number, n: number) => {
  const first = new Date(Date.UTC(y, m - 1, 1)).getUTCDay();
  return Date.UTC(y, m - 1, 1 + ((weekday - first + 7) % 7) + 7 * (n - 1));
};
const lastWeekday = (y: number, m: number, weekday: number) => {
  const last = Date.UTC(y, m, 0);
  return last - ((new Date(last).getUTCDay() - weekday + 7) % 7) * MS_PER_DAY;
};
/** Saturday holidays are observed the Friday before, Sunday ones the Monday after. */
const observed = (ms: number) => {
  const wd = new Date(ms).getUTCDay();
  return wd === 6 ? ms - MS_PER_DAY : wd === 0 ? ms + MS_PER_DAY : ms;
};
/** Gregorian Easter Sunday (anonymous Gregorian algorithm). */
function easter(y: number): number {
  const a = y % 19,
    b = Math.floor(y / 100),
    c = y % 100,
    d = Math.floor(b / 4),
    e = b % 4;
  const f = Math.floor((b + 8) / 25),
    g = Math.floor((b - f + 1) / 3),
    h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4),
    k = c % 4,
    l = (32 + 2 * e + 2 * i - h - k) % 7,
    m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31),
    day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(y, month - 1, day);
}

/**
 * Unscheduled full-day NYSE closures since 2000 (not given by rule): national days of mourning and emergencies, from
 * NYSE's own announcements. Add a new one here (YYYY-MM-DD) or at run time with addUnscheduledClosure.
 */
export const NYSE_UNSCHEDULED_CLOSURES: readonly string[] = [
  "2001-09-11", // September 11 attacks (closed through Sept 14)
  "2001-09-12",
  "2001-09-13",
  "2001-09-14",
  "2004-06-11", // National day of mourning, President Reagan
  "2007-01-02", // National day of mourning, President Ford
  "2012-10-29", // Hurricane Sandy
  "2012-10-30",
  "2018-12-05", // National day of mourning, President George H. W. Bush
  "2025-01-09", // National day of mourning, President Carter
];
const extraClosures = new Set<string>(NYSE_UNSCHEDULED_CLOSURES);

/** Adds an unscheduled full-day closure (YYYY-MM-DD) announced after this list was written. */
export function addUnscheduledClosure(date: string): void {
  const ms = Date.parse(`${date}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(ms) || iso(ms) !== date)
    throw new RangeError(`not a date: ${date}`);
  extraClosures.add(date);
  holidayCache.delete(Number(date.slice(0, 4)));
  expiryCloses.clear();
}

const holidayCache = new Map<number, Set<string>>();
/** NYSE full-day closures of year `y`: by rule (NYSE Rule 7.2; a Saturday New Year's Day is not observed on Dec 31) plus the unscheduled ones (NYSE_UNSCHEDULED_CLOSURES). */
export function nyseHolidays(y: number): Set<string> {
  const cached = holidayCache.get(y);
  if (cached) return cached;
  const newYear = Date.UTC(y, 0, 1);
  const days = [
    ...(new Date(newYear).getUTCDay() === 6 ? [] : [observed(newYear)]),
    nthWeekday(y, 1, 1, 3), // Martin Luther King Jr. Day
    nthWeekday(y, 2, 1, 3), // Washington's Birthday
    easter(y) - 2 * MS_PER_DAY, // Good Friday
    lastWeekday(y, 5, 1), // Memorial Day
    ...(y >= 2022 ? [observed(Date.UTC(y, 5, 19))] : []), // Juneteenth, first observed 2022
    observed(Date.UTC(y, 6, 4)),
    nthWeekday(y, 9, 1, 1), // Labor Day
    nthWeekday(y, 11, 4, 4), // Thanksgiving
    observed(Date.UTC(y, 11, 25)),
  ];
  const set = new Set(days.map(iso));
  for (const d of extraClosures) if (d.startsWith(`${y}-`)) set.add(d);
  holidayCache.set(y, set);
  return set;
}

const earlyCloseCache = new Map<number, Set<string>>();
/**
 * NYSE 13:00 early closes of year `y`, by rule: the day before Independence Day when it is a Monday–Thursday (none
 * when July 4 falls on a weekend or a Monday), the day after Thanksgiving, and Christmas Eve when it is a
 * Monday–Thursday.
 */
export function nyseEarlyCloses(y: number): Set<string> {
  const cached = earlyCloseCache.get(y);
  if (cached) return cached;
  const weekdayMonThu = (ms: number) => {
    const wd = new Date(ms).getUTCDay();
    return wd >= 1 && wd <= 4;
  };
  const july3 = Date.UTC(y, 6, 3);
  const christmasEve = Date.UTC(y, 11, 24);
  const days = [
    ...(weekdayMonThu(july3) ? [july3] : []),
    nthWeekday(y, 11, 4, 4) + MS_PER_DAY, // the Friday after Thanksgiving
    ...(weekdayMonThu(christmasEve) ? [christmasEve] : []),
  ];
  const set = new Set(days.map(iso));
  earlyCloseCache.set(y, set);
  return set;
}

/** The New York hour the session of trading day `date` closes: 13 on early-close days, else 16. */
export function sessionCloseHour(date: string): number {
  return nyseEarlyCloses(Number(date.slice(0, 4))).has(date) ? EARLY_CLOSE_LOCAL_HOUR : EXPIRY_CLOSE_LOCAL_HOUR;
}

/** The instant the session of trading day `date` closes (13:00 New York on early-close days, else 16:00). */
export function sessionClose(date: string): Date {
  return newYorkInstant(date, sessionCloseHour(date));
}

/** A weekday that is not an NYSE full-day holiday. */
export function isTradingDay(date: string): boolean {
  const ms = Date.parse(`${date}T00:00:00Z`);
  const wd = new Date(ms).getUTCDay();
  return wd !== 0 && wd !== 6 && !nyseHolidays(Number(date.slice(0, 4))).has(date);
}

/** The trading day on or before `date`: an expiry listed on a holiday expires the session before. */
export function tradingDayOnOrBefore(date: string): string {
  let ms = Date.parse(`${date}T00:00:00Z`);
  while (!isTradingDay(iso(ms))) ms -= MS_PER_DAY;
  return iso(ms);
}

/** Expiry dates are few and asked for once per quote: their close instants are kept. */
const expiryCloses = new BoundedMemo<string, number>(10_000);
const closeOf = (expiry: string) => sessionClose(tradingDayOnOrBefore(expiry)).getTime();

/**
 * The instant an expiry date's options stop trading: the close of the last trading day on or before it, 16:00 New
 * York or 13:00 on an early-close day.
 */
export function expiryClose(expiry: string): Date {
  return new Date(expiryCloses.get(expiry, closeOf));
}

/** Whole calendar days from the New York date of `asOf` to `date` (YYYY-MM-DD); negative for past dates. */
export function calendarDaysFromNewYork(asOf: Date, date: string): number {
  return Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${newYorkDate(asOf)}T00:00:00Z`)) / MS_PER_DAY);
}
