/**
 * Session calendar of the demo market: every weekday is a session (no holidays, on purpose) opening at 14:30 UTC and
 * closing at 21:00 UTC, except on the NYSE early-close days of the exchange calendar (the day before Independence Day
 * when a Monday–Thursday, the day after Thanksgiving, Christmas Eve when a Monday–Thursday), which close at 13:00 New
 * York (18:00 UTC in November and December, 17:00 UTC on 3 July). Options expire at the exchange calendar's close of
 * their expiry date (expiryClose: 16:00 New York, 13:00 on early-close days), the instant the analytics measure time
 * to expiry to, so the demo prices and the engine agree on every year fraction. Between sessions the demo runs a night
 * session of its own (./clock.ts, the demo clock).
 */
import { BoundedMemo } from "../../util/bounded-memo";
import {
  EARLY_CLOSE_LOCAL_HOUR,
  expiryClose,
  newYorkInstant,
  nyseEarlyCloses,
} from "../../analytics/exchange-calendar";

export const DAY_MS = 86_400_000;
export const MINUTE_MS = 60_000;
export const OPEN_OFFSET_MS = (14 * 60 + 30) * MINUTE_MS;
export const CLOSE_OFFSET_MS = 21 * 60 * MINUTE_MS;
export const SESSION_MINUTES = 390;
export const YEAR_MS = 365 * DAY_MS;
/** Paths start here so that every value is the same whichever "now" it is computed for. */
export const EPOCH_DAY = Date.UTC(2016, 0, 4); // a Monday

export function dayStart(t: number): number {
  return Math.floor(t / DAY_MS) * DAY_MS;
}

export function isWeekday(dayMs: number): boolean {
  const dow = new Date(dayMs).getUTCDay();
  return dow !== 0 && dow !== 6;
}

export const sessionOpen = (dayMs: number) => dayMs + OPEN_OFFSET_MS;

const closes = new BoundedMemo<number, number>(20_000);
function closeOfDay(dayMs: number): number {
  const date = isoDate(dayMs);
  return nyseEarlyCloses(new Date(dayMs).getUTCFullYear()).has(date)
    ? newYorkInstant(date, EARLY_CLOSE_LOCAL_HOUR).getTime()
    : dayMs + CLOSE_OFFSET_MS;
}
/** 21:00 UTC, or 13:00 New York on an NYSE early-close day. */
export const sessionClose = (dayMs: number) => closes.get(dayMs, closeOfDay);
/** Minutes from the open to the close: 390, or fewer on an early-close day. */
export const sessionMinutes = (dayMs: number) => Math.round((sessionClose(dayMs) - sessionOpen(dayMs)) / MINUTE_MS);
export const isEarlyClose = (dayMs: number) => sessionClose(dayMs) !== dayMs + CLOSE_OFFSET_MS;

const expiryCloses = new BoundedMemo<number, number>(5_000);
/** The instant options expiring on the UTC day dayMs stop trading (the exchange calendar's expiryClose of its date). */
export const expiryCloseMs = (dayMs: number) => expiryCloses.get(dayMs, (d) => expiryClose(isoDate(d)).getTime());

export function previousSession(dayMs: number): number {
  let d = dayMs - DAY_MS;
  while (!isWeekday(d)) d -= DAY_MS;
  return d;
}

export function nextSession(dayMs: number): number {
  let d = dayMs + DAY_MS;
  while (!isWeekday(d)) d += DAY_MS;
  return d;
}

/** The latest session that has opened at time t (before today's open that is the previous weekday). */
export function currentSession(t: number): number {
  let d = dayStart(t);
  if (!isWeekday(d) || t < sessionOpen(d)) d = previousSession(d);
  return d;
}

/** Minutes of the session elapsed at t, clamped to [0, sessionMinutes(dayMs)]. */
export function sessionMinute(dayMs: number, t: number): number {
  return Math.max(0, Math.min(sessionMinutes(dayMs), Math.floor((t - sessionOpen(dayMs)) / MINUTE_MS)));
}

/** Session days ascending, the last being `lastDay`, `count` in all. */
export function sessionsEndingAt(lastDay: number, count: number): number[] {
  const out = [lastDay];
  while (out.length < count) out.push(previousSession(out[out.length - 1]));
  return out.reverse();
}

/** Weekday sessions strictly between the epoch and dayMs: the session's index on the path. */
export function sessionIndex(dayMs: number): number {
  const days = Math.round((dayMs - EPOCH_DAY) / DAY_MS);
  const weeks = Math.floor(days / 7);
  return weeks * 5 + Math.min(days - weeks * 7, 5);
}

export function sessionDayAt(index: number): number {
  const weeks = Math.floor(index / 5);
  return EPOCH_DAY + (weeks * 7 + (index - weeks * 5)) * DAY_MS;
}

/**
 * Time of the chain snapshot in force at t: the latest whole minute, in a session or in the night session that runs
 * between sessions (./clock.ts); a close is a whole minute, so a session's last snapshot is the one at its close.
 */
export function chainAsOf(t: number): number {
  return Math.floor(t / MINUTE_MS) * MINUTE_MS;
}

export function isSessionClose(t: number): boolean {
  const day = dayStart(t);
  return isWeekday(day) && t === sessionClose(day);
}

const isoDates = new BoundedMemo<number, string>(20_000);
const formatDay = (dayMs: number) => new Date(dayMs).toISOString().slice(0, 10);

/** YYYY-MM-DD of a UTC day; memoised because chain and trade generation format the same few days millions of times. */
export function isoDate(dayMs: number): string {
  return isoDates.get(dayMs, formatDay);
}

export function parseIsoDate(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

/** Intraday share of volume traded by minute m of a session of `minutes` (390 unless an early close): U-shaped. */
// Integral of the 1 + 2.5(2x − 1)^2 density from 0 to u.
function uShapeIntegral(u: number): number {
  return u + (2.5 / 6) * ((2 * u - 1) ** 3 + 1);
}
const U_TOTAL = uShapeIntegral(1);

export function cumulativeVolumeShare(minute: number, minutes = SESSION_MINUTES): number {
  return uShapeIntegral(Math.max(0, Math.min(1, minute / minutes))) / U_TOTAL;
}

/** Relative trade intensity at session fraction x (same U shape, mean 1). */
export function intensityAt(x: number): number {
  return (1 + 2.5 * (2 * x - 1) ** 2) / (1 + 2.5 / 3);
}
