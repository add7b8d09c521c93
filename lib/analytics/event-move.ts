/**
 * Event-aware expected move: when an earnings date falls inside the listed expiries, the ATM total variance
 * w = σ²T of each expiry is split into a base part (a constant variance rate σb²) and a one-off event variance ve
 * carried by every expiry after the event, from the expiries either side of it (or, with none before it, the first
 * two after it). The move into the event then counts the event in full instead of diluting it over the expiry.
 */
import { calendarDaysFromNewYork } from "./exchange-calendar";
import { atmIvForExpiry, type ExpirySmile } from "./vol-surface";

export interface EventVariance {
  /** Base variance rate σb² per year (decimal²). */
  baseVariance: number;
  /** One-off event variance ve (decimal²); the event's 1-sd move is sqrt(ve) as a fraction of spot. */
  eventVariance: number;
  /** The two expiries the split came from. */
  expiries: [string, string];
}

export const definitions = {
  expectedMoveEvent:
    "Expected move into an earnings event (USD): spot × sqrt(σb² × max(days, 1)/365 + ve), days the calendar days from " +
    "the as-of date in New York to the event. The ATM total variance w = σ²T of each expiry (T in years to its close) is " +
    "split into a base rate σb² and an event variance ve carried by expiries after the event: with an expiry before the " +
    "event (the nearest, T0) and the first on or after it (T1), σb² = w0/T0 and ve = w1 − σb²·T1; with none before it, " +
    "from the first two after it, σb² = (w2 − w1)/(T2 − T1) and ve = w1 − σb²·T1. eventMovePct = sqrt(ve), the event's " +
    "own one-standard-deviation move as a fraction of spot. When ve ≤ 0 or σb² < 0 no event premium is priced: the " +
    "expected move is spot × σ × sqrt(max(days, 1)/365) with σ the ATM IV of the first expiry on or after the event, " +
    "and eventMovePct is null.",
} as const;

/** The base/event split around `eventDate` (YYYY-MM-DD), or null when it cannot be formed or prices no event. */
export function eventVariance(smiles: readonly ExpirySmile[], eventDate: string): EventVariance | null {
  const nodes = smiles
    .map((s) => ({ expiry: s.expiry, years: s.years, iv: atmIvForExpiry(s) }))
    .filter((n): n is { expiry: string; years: number; iv: number } => n.iv !== null && n.years > 0)
    .sort((a, b) => a.years - b.years);
  const after = nodes.filter((n) => n.expiry >= eventDate);
  const before = nodes.filter((n) => n.expiry < eventDate);
  if (after.length === 0) return null;
  const w = (n: { years: number; iv: number }) => n.iv * n.iv * n.years;
  const first = after[0];
  let baseVariance: number;
  let other: string;
  if (before.length > 0) {
    const prev = before[before.length - 1];
    baseVariance = w(prev) / prev.years;
    other = prev.expiry;
  } else if (after.length > 1) {
    const second = after[1];
    baseVariance = (w(second) - w(first)) / (second.years - first.years);
    other = second.expiry;
  } else return null;
  const eventVar = w(first) - baseVariance * first.years;
  if (!(baseVariance >= 0) || !(eventVar > 0)) return null;
  const expiries: [string, string] = other < first.expiry ? [other, first.expiry] : [first.expiry, other];
  return { baseVariance, eventVariance: eventVar, expiries };
}

export interface EventExpectedMove {
  date: string;
  days: number;
  move: number; // USD
  movePct: number; // fraction of spot
  eventMovePct: number; // sqrt(ve)
}

/** Expected move into the event with the event variance counted in full (see definitions.expectedMoveEvent). */
export function eventExpectedMove(spot: number, ev: EventVariance, asOf: Date, date: string): EventExpectedMove | null {
  const days = calendarDaysFromNewYork(asOf, date);
  if (!(days >= 0) || !(spot > 0)) return null;
  const movePct = Math.sqrt((ev.baseVariance * Math.max(days, 1)) / 365 + ev.eventVariance);
  return { date, days, move: spot * movePct, movePct, eventMovePct: Math.sqrt(ev.eventVariance) };
}
