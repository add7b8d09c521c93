/**
 * When each market-data sync kind runs, and how old its data may be before the live API stops serving it
 * (docs/market-data.md "Schedule" and "Staleness"; the bounds are judged in ./staleness.ts). Cron lines are New York wall-clock times; a run fires only when
 * the exchange calendar says its window is open, so holidays and early closes (13:00) need no cron of their own.
 */
import {
  isTradingDay,
  newYorkDate,
  newYorkInstant,
  sessionClose,
  tradingDayOnOrBefore,
} from "../analytics/exchange-calendar";

export const SYNC_KINDS = ["chain", "bars", "dividends", "trades", "treasury"] as const;
export type SyncKind = (typeof SYNC_KINDS)[number];
export const isSyncKind = (v: string): v is SyncKind => (SYNC_KINDS as readonly string[]).includes(v);

/** session: open to 10 minutes after the close; after_close: the hour after the close; always: whenever cron fires. */
export type SyncWindow = "session" | "after_close" | "always";

export interface ScheduleEntry {
  kind: SyncKind;
  /** pg-boss cron (minute hour day month weekday), evaluated in America/New_York. */
  cron: string;
  window: SyncWindow;
  /** How old this kind's newest run may be against its schedule before the admin table marks it late. */
  lateAfterMs: number;
}

const MIN = 60_000;
export const SYNC_TZ = "America/New_York";

export const DEFAULT_SCHEDULE: readonly ScheduleEntry[] = [
  { kind: "chain", cron: "*/5 9-16 * * 1-5", window: "session", lateAfterMs: 15 * MIN },
  { kind: "bars", cron: "*/5 9-16 * * 1-5", window: "session", lateAfterMs: 15 * MIN },
  { kind: "trades", cron: "*/15 9-16 * * 1-5", window: "session", lateAfterMs: 45 * MIN },
  { kind: "dividends", cron: "20 13,16 * * 1-5", window: "after_close", lateAfterMs: 26 * 60 * MIN },
  { kind: "treasury", cron: "0 18 * * 1-5", window: "always", lateAfterMs: 26 * 60 * MIN },
];

/**
 * How each kind's newest data is judged before the live API serves what reads it (lib/market/staleness.ts):
 * - lag: the data may trail the market (now in a session, the last close outside one) by `afterMs`; in a session's
 *   first `afterMs` the last close still counts (the first runs of the day are under way).
 * - session_bar: the daily bar of the session the market stood in `graceMs` ago (else the last closed one) is stored.
 * - published: each business day's curve is due at `dueHour` New York; up to `missedDays` due curves may be missing.
 */
export type StalenessRule =
  | { rule: "lag"; afterMs: number }
  | { rule: "session_bar"; graceMs: number }
  | { rule: "published"; dueHour: number; missedDays: number };

/** Each kind's bound, from its schedule (docs/market-data.md "Staleness"); null: the API never refuses on it. */
export const STALENESS: Readonly<Record<SyncKind, StalenessRule | null>> = {
  chain: { rule: "lag", afterMs: 30 * MIN }, // six 5-minute runs
  bars: { rule: "session_bar", graceMs: 30 * MIN },
  trades: { rule: "lag", afterMs: 60 * MIN }, // four 15-minute runs
  dividends: null, // reference data announced weeks before the ex-date; a late run shows in the admin table only
  treasury: { rule: "published", dueHour: 18, missedDays: 1 }, // the 18:00 run; one late or failed day tolerated
};

/**
 * The schedule with operator overrides `MARKET_DATA_CRON="kind=cron;kind=cron"`: an overridden kind runs whenever its
 * cron fires (window "always"). Throws on a bad override (the server refuses to start).
 */
export function syncSchedule(override: string | undefined): ScheduleEntry[] {
  const entries = DEFAULT_SCHEDULE.map((e) => ({ ...e }));
  for (const part of (override ?? "")
    .split(";")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [kind, cron] = part.split("=").map((s) => s.trim());
    const entry = entries.find((e) => e.kind === kind);
    if (!entry || !cron || cron.split(/\s+/).length !== 5)
      throw new Error(
        `MARKET_DATA_CRON: "${part}" is not kind=<5-field cron> with kind one of ${SYNC_KINDS.join(", ")}`,
      );
    entry.cron = cron;
    entry.window = "always";
  }
  return entries;
}

const openOf = (date: string) => new Date(newYorkInstant(date, 9).getTime() + 30 * MIN);

/** Whether a run fired at `now` is inside its window (trading day, session or the hour after the close). */
export function inWindow(window: SyncWindow, now: Date): boolean {
  if (window === "always") return true;
  const date = newYorkDate(now);
  if (!isTradingDay(date)) return false;
  const t = now.getTime();
  const close = sessionClose(date).getTime();
  if (window === "session") return t >= openOf(date).getTime() && t <= close + 10 * MIN;
  return t >= close && t < close + 60 * MIN;
}

/** The newest moment live market data can be expected to describe: now in a session, else the last close. */
export function expectedAsOf(now: Date): Date {
  const today = newYorkDate(now);
  if (isTradingDay(today)) {
    if (now.getTime() >= openOf(today).getTime())
      return new Date(Math.min(now.getTime(), sessionClose(today).getTime()));
  }
  const prev = tradingDayOnOrBefore(new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10));
  return sessionClose(prev);
}
