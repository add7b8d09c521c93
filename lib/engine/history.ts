/**
 * Writes the daily metric snapshots (lib/engine/daily-snapshots.ts) into metric_snapshots: a year of the demo market
 * at seed time, the day that closed when the demo ticker's leader passes a session close, and the days an import
 * changed. Each run reads the stored data once, fills the ATM-IV cache the engine would otherwise fill on its first
 * load, and upserts in batches (recomputing a day replaces its row).
 */
import type { Db } from "../db/client";
import type { Instrument, MarketEnv } from "../analytics/types";
import { isTradingDay, newYorkDate, sessionClose } from "../analytics/exchange-calendar";
import { log } from "../log";
import { seedDemoMarket, type SeedResult } from "../market/demo-market-writer";
import { demoInstruments } from "../market/demo/simulator";
import { DAY_MS, isWeekday, isoDate, parseIsoDate, sessionClose as demoSessionClose } from "../market/demo/calendar";
import {
  closedSnapshotDays,
  loadHistoryInput,
  loadIvHistoryRange,
  saveSnapshots,
} from "../market/metric-snapshots-store";
import { fillIvHistory } from "./iv-history";
import { computeDailySnapshots } from "./daily-snapshots";

/** Days computed per batch: bounds the rows held in memory before they are written. */
const DAYS_PER_BATCH = 40;
/** How far back a run looks for closed days: the longest plan window (400 calendar days). */
export const HISTORY_MAX_DAYS = 400;

export interface SnapshotRun {
  days: number;
  rows: number;
  ms: number;
}

export interface SnapshotOptions {
  /** Recompute closed days from this New York date on (default: the last HISTORY_MAX_DAYS days). */
  since?: string;
  /** Exactly these days (they must have closed). */
  days?: string[];
  /** The instruments as stored on a day (the demo market's next earnings date moves each session). */
  instrumentsOn?: (date: string) => Instrument[];
}

const demoCloseOf = (date: string) => new Date(demoSessionClose(parseIsoDate(date)));
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/** Computes and upserts the snapshots of the environment's closed days (see SnapshotOptions). */
export async function writeDailySnapshots(db: Db, env: MarketEnv, opts: SnapshotOptions = {}): Promise<SnapshotRun> {
  const started = performance.now();
  const since = opts.days ? [...opts.days].sort()[0] : (opts.since ?? daysAgo(HISTORY_MAX_DAYS));
  if (since === undefined) return { days: 0, rows: 0, ms: 0 };
  const closed = await closedSnapshotDays(db, env, sessionClose, since);
  const wanted = opts.days ? new Set(opts.days) : null;
  // The demo's history is its sessions' (to their close): its night session writes no day and moves no day's inputs.
  const demo = env === "demo";
  const days = closed.filter((d) => (!wanted || wanted.has(d)) && (!demo || isWeekday(parseIsoDate(d))));
  if (days.length === 0) return { days: 0, rows: 0, ms: Math.round(performance.now() - started) };
  let input = await loadHistoryInput(db, env, days, demo ? demoCloseOf : undefined);
  // IV rank needs the day-by-day ATM IV before each day: solve what the cache lacks once, here, then read it.
  if ((await fillIvHistory(db, env, null, input.instruments, input.dailyBarsBySymbol)) > 0)
    input = { ...input, ivHistoryBySymbol: await loadIvHistoryRange(db, env, days[0], days[days.length - 1]) };
  let rows = 0;
  for (let i = 0; i < days.length; i += DAYS_PER_BATCH) {
    const batch = computeDailySnapshots(
      { ...input, instrumentsOn: opts.instrumentsOn },
      days.slice(i, i + DAYS_PER_BATCH),
    );
    await saveSnapshots(
      db,
      env,
      batch.map((r) => ({ ...r, inputs: r.inputs as unknown as Record<string, unknown> })),
    );
    rows += batch.length;
  }
  const run = { days: days.length, rows, ms: Math.round(performance.now() - started) };
  log.info("metric snapshots written", { env, ...run });
  return run;
}

/** The demo market's instruments as its ticker stores them on a session day (the next earnings date moves). */
export const demoInstrumentsOn = (seed: number | string) => (date: string) =>
  demoInstruments(seed, parseIsoDate(date) + 20 * 3_600_000);

/** Seeds the demo market and writes its year of daily snapshots, in the seeding process. */
export async function seedDemoMarketWithHistory(
  db: Db,
  opts: { seed: number | string; now: Date | number },
): Promise<SeedResult & { snapshots: SnapshotRun }> {
  const seeded = await seedDemoMarket(db, opts);
  const snapshots = await writeDailySnapshots(db, "demo", {
    since: new Date(+opts.now - HISTORY_MAX_DAYS * 86_400_000).toISOString().slice(0, 10),
    instrumentsOn: demoInstrumentsOn(opts.seed),
  });
  return { ...seeded, snapshots };
}

/**
 * The demo ticker leader's step after each write: a reseed gets its year of snapshots; an advance over (from, to]
 * gets the snapshots of every session that closed in it — the demo market's (21:00 UTC each weekday) and the live
 * store's (NYSE close, 13:00 New York on early-close days), when that store has data of the day.
 */
export async function snapshotsAfterTick(
  db: Db,
  seed: number | string,
  w: { reseeded: boolean; from: number; to: number },
): Promise<void> {
  if (w.reseeded) {
    const since = new Date(w.to - HISTORY_MAX_DAYS * DAY_MS).toISOString().slice(0, 10);
    await writeDailySnapshots(db, "demo", { since, instrumentsOn: demoInstrumentsOn(seed) });
    return;
  }
  const demoDays: string[] = [];
  const liveDays: string[] = [];
  for (let d = Math.floor(w.from / DAY_MS) * DAY_MS; d <= w.to; d += DAY_MS) {
    const close = demoSessionClose(d);
    if (isWeekday(d) && close > w.from && close <= w.to) demoDays.push(isoDate(d));
    const date = newYorkDate(new Date(d + 12 * 3_600_000));
    const liveClose = sessionClose(date).getTime();
    if (isTradingDay(date) && liveClose > w.from && liveClose <= w.to) liveDays.push(date);
  }
  if (demoDays.length)
    await writeDailySnapshots(db, "demo", { days: demoDays, instrumentsOn: demoInstrumentsOn(seed) });
  if (liveDays.length) await writeDailySnapshots(db, "live", { days: liveDays });
}

/** After an import that changed stored rows from `changedFrom` (a New York date) on: recompute the closed days since. */
export async function snapshotsAfterImport(db: Db, env: MarketEnv, changedFrom: string | null): Promise<SnapshotRun> {
  if (changedFrom === null) return { days: 0, rows: 0, ms: 0 };
  const floor = daysAgo(HISTORY_MAX_DAYS);
  return writeDailySnapshots(db, env, { since: changedFrom > floor ? changedFrom : floor });
}
