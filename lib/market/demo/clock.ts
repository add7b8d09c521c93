/**
 * The demo clock: where the demo market stands at a wall-clock instant. Inside a session of the demo calendar
 * (./calendar.ts: 14:30–21:00 UTC on every weekday, 13:00 New York on NYSE early-close days) it reads that session's
 * minute, as it always did. From a session's close to the next session's open — every night, weekend and afternoon
 * after an early close, when the US market is closed — the demo runs a continuous session of its own: the night
 * session of the day that closed, whose minute k is the close plus k minutes. There the underlyings stay at their
 * close (daily bars, and so history, only move in real sessions), implied vols wander on a bridge that leaves the
 * close's level and comes back to it by the next open (./night.ts), and sweeps and blocks print about every 20 s
 * (./trades.ts), so flow events, IV changes and no-trade changes keep coming at any hour. Wall time itself is never
 * remapped: every row the demo writes carries the instant it describes, and history stays on session days.
 */
import {
  MINUTE_MS,
  currentSession,
  nextSession,
  sessionClose,
  sessionMinute,
  sessionMinutes,
  sessionOpen,
} from "./calendar";

export interface DemoClockReading {
  /** A session of the demo calendar, or the demo's own night session after it. */
  phase: "session" | "night";
  /** The session day (00:00 UTC) whose session or night it is. */
  day: number;
  /** Whole minutes since the open (session) or since the close (night), within [0, minutes]. */
  minute: number;
  /** Length of that session or night in minutes. */
  minutes: number;
}

/** The night session of `day`: from its close to the open of the next session. */
export function nightOf(day: number): { start: number; end: number } {
  return { start: sessionClose(day), end: sessionOpen(nextSession(day)) };
}

/** Where the demo market stands at wall time t; the close itself still belongs to its session. */
export function demoClock(t: number): DemoClockReading {
  const day = currentSession(t);
  if (t <= sessionClose(day))
    return { phase: "session", day, minute: sessionMinute(day, t), minutes: sessionMinutes(day) };
  const { start, end } = nightOf(day);
  const minutes = Math.round((end - start) / MINUTE_MS);
  return { phase: "night", day, minute: Math.min(minutes, Math.floor((t - start) / MINUTE_MS)), minutes };
}

export const isNight = (t: number) => t > sessionClose(currentSession(t));
