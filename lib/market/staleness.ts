/**
 * Whether a kind's newest live data is too old to serve, by the bounds in STALENESS (docs/market-data.md
 * "Staleness"). One definition for the API's 503 (lib/engine/queries.ts) and the admin freshness table
 * (lib/domain/market-sync-status.ts).
 */
import { newYorkDate, newYorkInstant, sessionClose, tradingDayOnOrBefore } from "../analytics/exchange-calendar";
import { expectedAsOf, STALENESS, type StalenessRule, type SyncKind } from "./sync-schedule";

const MIN = 60_000;
const DAY_MS = 86_400_000;

/** What one item of each kind is called in a message. */
const NOUN: Record<SyncKind, string> = {
  chain: "option chain snapshot",
  bars: "daily bar",
  trades: "options print",
  dividends: "dividend",
  treasury: "yield curve",
};

/** A daily bar's as-of: the close of its session (bars are stored at 00:00 UTC of their New York session date). */
export const dailyBarAsOf = (ts: Date) => sessionClose(ts.toISOString().slice(0, 10));

/** A Treasury curve's as-of: 21:00 UTC of its date (the time its answers are labelled with). */
export const curveAsOf = (date: string) => new Date(`${date}T21:00:00Z`);

const dayBefore = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);

/**
 * The market moment data must keep up with: expectedAsOf (now in a session, else the last close), except that during
 * the first `graceMs` of a session the last close still counts.
 */
export function marketReference(now: Date, graceMs: number): Date {
  const current = expectedAsOf(now);
  const before = expectedAsOf(new Date(now.getTime() - graceMs));
  return newYorkDate(before) < newYorkDate(current) ? before : current;
}

/** The newest business day (NYSE trading day) whose curve was due at `dueHour` New York by `now`. */
export function lastDueBusinessDay(now: Date, dueHour: number): string {
  const day = tradingDayOnOrBefore(newYorkDate(now));
  return newYorkInstant(day, dueHour).getTime() <= now.getTime() ? day : tradingDayOnOrBefore(dayBefore(day));
}

/** The oldest curve date a `published` rule accepts at `now`: `missedDays` business days before the last one due. */
function oldestCurveDate(now: Date, rule: { dueHour: number; missedDays: number }): string {
  let date = lastDueBusinessDay(now, rule.dueHour);
  for (let i = 0; i < rule.missedDays; i++) date = tradingDayOnOrBefore(dayBefore(date));
  return date;
}

/** What `rule` asks of `kind`'s data at `now`, in words, and whether data as of `asOf` meets it. */
function requirement(kind: SyncKind, rule: StalenessRule, asOf: Date, now: Date) {
  if (rule.rule === "lag") {
    const oldest = new Date(marketReference(now, rule.afterMs).getTime() - rule.afterMs);
    return {
      met: asOf.getTime() >= oldest.getTime(),
      what: `newest ${NOUN[kind]} as of ${asOf.toISOString()}`,
      needs: `its bound is ${rule.afterMs / MIN} minutes behind the market: data as of ${oldest.toISOString()} or newer`,
    };
  }
  const date =
    rule.rule === "session_bar" ? newYorkDate(marketReference(now, rule.graceMs)) : oldestCurveDate(now, rule);
  return {
    met: newYorkDate(asOf) >= date,
    what: `newest ${NOUN[kind]} ${newYorkDate(asOf)}`,
    needs: `its bound needs the ${NOUN[kind]} of ${date}${rule.rule === "published" ? " or a later one" : ""}`,
  };
}

/** The bound in words (the admin table, `cli sync status`); null for a kind without one. */
export function describeBound(kind: SyncKind): string | null {
  const rule = STALENESS[kind];
  if (!rule) return null;
  if (rule.rule === "lag")
    return `at most ${rule.afterMs / MIN} minutes behind the market (the last close counts for the first ${rule.afterMs / MIN} minutes of a session)`;
  if (rule.rule === "session_bar")
    return `the last session's daily bar (the current session's from ${rule.graceMs / MIN} minutes after the open)`;
  return `a curve at most ${rule.missedDays} business day${rule.missedDays === 1 ? "" : "s"} before the last one due (each business day's is due at ${rule.dueHour}:00 New York)`;
}

/**
 * Why live `kind` data as of `asOf` is too old to serve at `now` (a message naming the kind and the data's age), or
 * null when it is fresh enough or the kind has no bound. A dated kind's `asOf` is an instant on its New York date
 * (a daily bar: its session's close; a curve: its date's 21:00 UTC).
 */
export function staleReason(kind: SyncKind, asOf: Date, now: Date, subject?: string): string | null {
  const rule = STALENESS[kind];
  if (!rule) return null;
  const r = requirement(kind, rule, asOf, now);
  if (r.met) return null;
  return `Live ${kind} data${subject ? ` for ${subject}` : ""} is ${describeAge(now.getTime() - asOf.getTime())} old (${r.what}); ${r.needs}. The data source has not updated it.`;
}

export function describeAge(ms: number): string {
  const m = Math.max(0, Math.round(ms / MIN));
  if (m < 120) return `${m} minute${m === 1 ? "" : "s"}`;
  const h = Math.round(m / 60);
  if (h < 72) return `${h} hours`;
  return `${Math.round(h / 24)} days`;
}
