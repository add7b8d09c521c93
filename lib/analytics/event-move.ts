/**
 * Event-aware expected move: when an earnings date falls inside the listed expiries, the ATM total variance
 * w = σ²T of each expiry is split into a base part (a constant variance rate σb²) and a one-off event variance ve
 * carried by every expiry still trading when the event lands. The event's timing decides which expiries those are: an
 * after-close report on an expiry date lands after that expiry's options stopped trading; a before-open one lands
 * inside it. The base rate comes from the nearest expiry before the event, else from the first two after it, else
 * (one expiry after the event, none before it) from the 30-session realised vol. The move into the event then counts
 * the event in full instead of diluting it over the expiry.
 */
import { expectedMoveToDate } from "./chain-metrics";
import { calendarDaysFromNewYork } from "./exchange-calendar";
import type { EarningsTiming, EventBaseSource, SymbolMetrics } from "./types";
import { atmIvForExpiry, type ExpirySmile } from "./vol-surface";

export interface EventVariance {
  /** Base variance rate σb² per year (decimal²). */
  baseVariance: number;
  /** One-off event variance ve (decimal²); the event's 1-sd move is sqrt(ve) as a fraction of spot. */
  eventVariance: number;
  /** Where σb² came from (see EventBaseSource). */
  baseSource: EventBaseSource;
  /** The expiries the split came from, ascending: two, or the one after the event when σb² is the hv30's. */
  expiries: string[];
}

export const definitions = {
  expectedMoveEvent:
    "Expected move into an earnings event (USD): spot × sqrt(σb² × max(days, 1)/365 + ve), days the calendar days from " +
    "the as-of date in New York to the event date. The ATM total variance w = σ²T of each expiry (T in years to its " +
    "close) is split into a base rate σb² and an event variance ve carried by the expiries still trading when the " +
    "event lands (see earningsTiming: an expiry on the event date carries a before_open event, not an after_close one, " +
    "and is left out of the split when the timing is unknown). With an expiry before the event (the nearest, T0) and " +
    "the first carrying it (T1), σb² = w0/T0 and ve = w1 − σb²·T1; with none before it, from the first two after it, " +
    "σb² = (w2 − w1)/(T2 − T1) and ve = w1 − σb²·T1; with a single expiry after it and none before it, σb² = hv30² " +
    "(the 30-session realised vol) and ve = w1 − σb²·T1, and without a positive hv30 the base cannot be separated from the " +
    "event: the expected move is null (unknown). eventMovePct = sqrt(ve), the event's own one-standard-deviation " +
    "move as a fraction of spot; baseSource says which rule gave σb² (expiry_before, expiries_after or hv30). When " +
    "ve ≤ 0 or σb² < 0 no event premium is priced: the expected move is spot × σ × sqrt(max(days, 1)/365) with σ the " +
    "ATM IV of the first expiry carrying the event (on or after its date when the timing is unknown), and " +
    "eventMovePct and baseSource are null.",
  earningsTiming:
    "expected_move.timing: when the earnings are reported on their date, as imported (the instruments CSV's " +
    "earnings_timing column): before_open (before that day's session opens: options expiring that day trade on the " +
    "news) or after_close (after its 16:00 New York close: options expiring that day have stopped trading and do not " +
    "carry the event). null: unknown; an expiry on the event date is then neither before nor after the event and is " +
    "left out of the split.",
} as const;

type Node = { expiry: string; years: number; iv: number };

/** Whether an expiry's options are still trading when the event lands; null: cannot tell (unknown timing, same date). */
export function expiryCarriesEvent(
  expiry: string,
  eventDate: string,
  timing: EarningsTiming | null | undefined,
): boolean | null {
  if (expiry !== eventDate) return expiry > eventDate;
  if (timing === "before_open") return true;
  if (timing === "after_close") return false;
  return null;
}

export interface EventSplitOptions {
  /** The event's timing on its date; null or unset: unknown. */
  timing?: EarningsTiming | null;
  /** 30-session realised vol (decimal): the base rate when one expiry follows the event and none precedes it (> 0). */
  hv30?: number | null;
}

/**
 * The base/event split around `eventDate` (YYYY-MM-DD):
 * - split: the event variance and base rate;
 * - no_premium: the chain prices no event premium (ve ≤ 0 or σb² < 0);
 * - unknown: one expiry carries the event, none closes before it and no hv30 separates the base;
 * - none: no expiry with a usable ATM IV carries the event.
 */
export type EventSplit =
  | { kind: "split"; split: EventVariance }
  | { kind: "no_premium" }
  | { kind: "unknown" }
  | { kind: "none" };

export function eventSplit(
  smiles: readonly ExpirySmile[],
  eventDate: string,
  opts: EventSplitOptions = {},
): EventSplit {
  const nodes = smiles
    .map((s) => ({ expiry: s.expiry, years: s.years, iv: atmIvForExpiry(s) }))
    .filter((n): n is Node => n.iv !== null && n.years > 0)
    .sort((a, b) => a.years - b.years);
  const carries = (n: Node) => expiryCarriesEvent(n.expiry, eventDate, opts.timing);
  const after = nodes.filter((n) => carries(n) === true);
  const before = nodes.filter((n) => carries(n) === false);
  if (after.length === 0) return { kind: "none" };
  const w = (n: Node) => n.iv * n.iv * n.years;
  const first = after[0];
  let baseVariance: number;
  let baseSource: EventBaseSource;
  let expiries: string[];
  if (before.length > 0) {
    const prev = before[before.length - 1];
    baseVariance = w(prev) / prev.years;
    baseSource = "expiry_before";
    expiries = [prev.expiry, first.expiry];
  } else if (after.length > 1) {
    const second = after[1];
    baseVariance = (w(second) - w(first)) / (second.years - first.years);
    baseSource = "expiries_after";
    expiries = [first.expiry, second.expiry];
  } else if (opts.hv30 != null && Number.isFinite(opts.hv30) && opts.hv30 > 0) {
    baseVariance = opts.hv30 * opts.hv30;
    baseSource = "hv30";
    expiries = [first.expiry];
  } else return { kind: "unknown" };
  const eventVar = w(first) - baseVariance * first.years;
  if (!(baseVariance >= 0) || !(eventVar > 0)) return { kind: "no_premium" };
  return { kind: "split", split: { baseVariance, eventVariance: eventVar, baseSource, expiries } };
}

/** The split around `eventDate`, or null when it cannot be formed or prices no event (see eventSplit). */
export function eventVariance(
  smiles: readonly ExpirySmile[],
  eventDate: string,
  opts: EventSplitOptions = {},
): EventVariance | null {
  const s = eventSplit(smiles, eventDate, opts);
  return s.kind === "split" ? s.split : null;
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

export interface EventMoveInput extends EventSplitOptions {
  spot: number;
  smiles: readonly ExpirySmile[];
  asOf: Date;
  /** The earnings date, YYYY-MM-DD (New York). */
  date: string;
}

/** SymbolMetrics.expectedMove for an earnings date (see definitions.expectedMoveEvent); null when unknown or past. */
export function expectedMoveIntoEvent(input: EventMoveInput): SymbolMetrics["expectedMove"] {
  const { spot, smiles, asOf, date } = input;
  const timing = input.timing ?? null;
  const split = eventSplit(smiles, date, input);
  if (split.kind === "split") {
    const m = eventExpectedMove(spot, split.split, asOf, date);
    return m && { ...m, baseSource: split.split.baseSource, timing };
  }
  if (split.kind !== "no_premium") return null;
  // No premium priced: the plain move with the ATM IV of the first expiry carrying the event (an expiry on the date
  // counts when the timing is unknown).
  const eventIv = smiles
    .filter((s) => expiryCarriesEvent(s.expiry, date, timing) ?? true)
    .map((s) => atmIvForExpiry(s))
    .find((iv) => iv !== null);
  const m = eventIv == null ? null : expectedMoveToDate(spot, eventIv, asOf, date);
  return m && { ...m, timing };
}
