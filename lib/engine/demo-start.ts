/**
 * The demo market at start-up (`npm start`): built once (a year of sessions and their daily snapshots), then on later
 * starts brought up to date from where the stored market stands, as the demo ticker does, instead of rebuilt. A store
 * too old to replay (over MAX_CATCH_UP_MS), one without its recent snapshots (a first start cut short), or one ahead of
 * the clock (left by a start with DEMO_CLOCK_AT in the future: its ticker would wait for the wall clock) is rebuilt.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { advanceDemoMarket } from "../market/demo-market-writer";
import { MAX_CATCH_UP_MS, storedAsOf } from "../market/store-ticker";
import { DAY_MS } from "../market/demo/calendar";
import { seedDemoMarketWithHistory, snapshotsAfterTick } from "./history";

/** A store this far ahead of the clock is rebuilt rather than left to wait for it. */
const AHEAD_MS = 60_000;

export type DemoStart = { mode: "built"; ms: number } | { mode: "updated"; ms: number; fromAsOf: string };

/** Whether the demo store has its daily snapshots up to a week before `asOf` (a completed first build). */
async function hasRecentSnapshots(db: Db, asOf: number): Promise<boolean> {
  const since = new Date(asOf - 7 * DAY_MS).toISOString().slice(0, 10);
  const rows = await db.execute<{ ok: boolean }>(
    sql`select exists (select 1 from metric_snapshots where env = 'demo' and date >= ${since}::date) as ok`,
  );
  return rows[0]?.ok === true;
}

export async function demoMarketOnStart(db: Db, opts: { seed: number | string; now: number }): Promise<DemoStart> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const stored = await storedAsOf({ db });
  const usable = stored !== null && opts.now - stored <= MAX_CATCH_UP_MS && stored - opts.now <= AHEAD_MS;
  if (usable && (await hasRecentSnapshots(db, stored))) {
    if (opts.now > stored) {
      await advanceDemoMarket(db, { seed: opts.seed, from: stored, to: opts.now });
      await snapshotsAfterTick(db, opts.seed, { reseeded: false, from: stored, to: opts.now });
    }
    return { mode: "updated", ms: ms(), fromAsOf: new Date(stored).toISOString() };
  }
  await seedDemoMarketWithHistory(db, { seed: opts.seed, now: opts.now });
  return { mode: "built", ms: ms() };
}
