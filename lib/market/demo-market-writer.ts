/**
 * Writes the demo market into the store (env "demo"): a full, idempotent seed, and real-time increments that keep
 * the chain table bounded (only the newest intraday or night snapshot survives; end-of-day snapshots at each session's
 * close stay). Between sessions the increments are the night session's (./demo/clock.ts): prints and a chain snapshot
 * a minute, never a bar.
 */
import { invalidateIvHistory } from "./iv-history-store";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { bumpMarketVersion, readMarketVersions } from "./versions";
import {
  BARS,
  CASH_DIVIDENDS,
  INSTRUMENTS,
  INSTRUMENT_STYLES,
  QUOTES,
  TRADES,
  YIELDS,
  analyzeTables,
  bulkInsert,
  type Tx,
} from "./store-bulk";
import {
  generateDemoMarket,
  generateBarsAt,
  generateChainAt,
  generateEodChain,
  generateTradesBetween,
  generateYields,
  demoInstruments,
} from "./demo/simulator";
import {
  DAY_MS,
  chainAsOf,
  currentSession,
  isSessionClose,
  nextSession,
  previousSession,
  sessionClose,
  sessionOpen,
} from "./demo/calendar";
import { DEMO_UNIVERSE } from "./demo/universe";

/** Serialises every demo write (seed, tick) across processes; held for one transaction. */
export const DEMO_WRITE_LOCK = 727_101;
/** Old trades and 5-minute bars kept after a session rolls over. */
const KEEP_INTRADAY_MS = 7 * DAY_MS;
const DEMO_SYMBOLS = DEMO_UNIVERSE.map((s) => s.symbol);
const symbolsParam = () => sql`${`{${DEMO_SYMBOLS.join(",")}}`}::text[]`;

export interface SeedResult {
  asOf: Date;
  rows: { instruments: number; bars: number; quotes: number; trades: number; yields: number };
  generateMs: number;
  writeMs: number;
  version: number;
}

/**
 * Replaces the whole demo market with the one at `now` (delete + insert in one transaction), then bumps the version.
 */
export async function seedDemoMarket(db: Db, opts: { seed: number | string; now: Date | number }): Promise<SeedResult> {
  const t0 = performance.now();
  const m = generateDemoMarket({ seed: opts.seed, now: opts.now });
  const t1 = performance.now();
  const version = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${DEMO_WRITE_LOCK})`);
    await invalidateIvHistory(tx, "demo", { all: true }); // the whole market is rewritten: so is what derives from it
    for (const table of [
      "option_trades",
      "option_quotes",
      "bars",
      "treasury_yields",
      "instrument_exercise_styles",
      "cash_dividends",
      "instruments",
    ]) {
      await tx.execute(sql`delete from ${sql.raw(table)} where env = 'demo'`);
    }
    await bulkInsert(tx, "demo", INSTRUMENTS, m.instruments);
    await bulkInsert(
      tx,
      "demo",
      INSTRUMENT_STYLES,
      m.instruments.filter((i) => i.exerciseStyle !== undefined),
    );
    await bulkInsert(
      tx,
      "demo",
      CASH_DIVIDENDS,
      m.instruments.flatMap((i) => i.cashDividends ?? []),
    );
    await bulkInsert(tx, "demo", BARS, [...m.dailyBars, ...m.intradayBars]);
    await bulkInsert(tx, "demo", YIELDS, m.yields);
    await bulkInsert(tx, "demo", QUOTES, [...m.chainHistory, ...m.chain]);
    await bulkInsert(tx, "demo", TRADES, m.trades);
    return bumpMarketVersion(tx, "demo");
  });
  await analyzeTables(
    db,
    [INSTRUMENTS, INSTRUMENT_STYLES, CASH_DIVIDENDS, BARS, YIELDS, QUOTES, TRADES].map((t) => t.table),
  );
  return {
    asOf: m.asOf,
    rows: {
      instruments: m.instruments.length,
      bars: m.dailyBars.length + m.intradayBars.length,
      quotes: m.chainHistory.length + m.chain.length,
      trades: m.trades.length,
      yields: m.yields.length,
    },
    generateMs: Math.round(t1 - t0),
    writeMs: Math.round(performance.now() - t1),
    version,
  };
}

export interface AdvanceResult {
  asOf: Date; // the chain snapshot now current
  trades: number;
  newChain: boolean;
  version: number;
}

/** Sessions whose trading overlaps (from, to], ascending. */
function sessionsTouched(from: number, to: number): number[] {
  const out: number[] = [];
  for (let d = currentSession(from); d <= currentSession(to); d = nextSession(d)) {
    if (sessionClose(d) > from && sessionOpen(d) <= to) out.push(d);
  }
  return out;
}

/**
 * Moves the stored demo market from `from` to `to`: trades in (from, to], bars, yields and instruments of the sessions
 * touched, the chain snapshot as of `to` (replacing the previous intraday one) and reduced EOD snapshots for sessions
 * that closed meanwhile. Re-running a window is harmless: every row is deterministic and keyed.
 */
export async function advanceDemoMarket(
  db: Db,
  opts: { seed: number | string; from: Date | number; to: Date | number },
): Promise<AdvanceResult> {
  const { seed } = opts;
  const from = +opts.from;
  const to = +opts.to;
  const prevAsOf = chainAsOf(from);
  const asOf = chainAsOf(to);
  const touched = to > from ? sessionsTouched(from, to) : [];
  const trades = to > from ? generateTradesBetween(seed, from, to) : [];
  const newChain = asOf > prevAsOf;
  const sessionChanged = currentSession(to) !== currentSession(from);
  // A tick that brings no print and no new minute writes nothing: readers keep their view instead of reloading an
  // unchanged one. (Nights and weekends are not at rest: the demo clock runs its night session, ./demo/clock.ts.)
  if (!trades.length && !touched.length && !newChain && !sessionChanged) {
    return { asOf: new Date(asOf), trades: 0, newChain: false, version: (await readMarketVersions(db)).demo };
  }
  const version = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${DEMO_WRITE_LOCK})`);
    await bulkInsert(tx, "demo", TRADES, trades);
    await writeBars(tx, seed, touched, from, to);
    if (sessionChanged) {
      await bulkInsert(tx, "demo", YIELDS, generateYields(seed, touched));
      const instruments = demoInstruments(seed, to);
      await bulkInsert(tx, "demo", INSTRUMENTS, instruments, "update");
      const styled = instruments.filter((i) => i.exerciseStyle !== undefined);
      await bulkInsert(tx, "demo", INSTRUMENT_STYLES, styled, "update");
      await bulkInsert(
        tx,
        "demo",
        CASH_DIVIDENDS,
        instruments.flatMap((i) => i.cashDividends ?? []),
        "update",
      );
      await pruneIntraday(tx, sessionOpen(currentSession(to)) - KEEP_INTRADAY_MS);
    }
    if (newChain) await writeChain(tx, seed, prevAsOf, asOf, to);
    // Within a session a tick only adds newer rows; a roll-over prunes and rewrites instruments and yields.
    return bumpMarketVersion(tx, "demo", sessionChanged ? "rebase" : "append");
  });
  return { asOf: new Date(asOf), trades: trades.length, newChain, version };
}

async function writeBars(tx: Tx, seed: number | string, sessions: number[], from: number, to: number): Promise<void> {
  for (const day of sessions) {
    const { daily, intraday } = generateBarsAt(seed, Math.min(to, sessionClose(day)));
    // Only bars that can have changed since `from`: the daily one and the 5-minute ones still open at `from`.
    await bulkInsert(tx, "demo", BARS, [...daily, ...intraday.filter((b) => +b.ts > from - 5 * 60_000)], "update");
  }
}

async function writeChain(tx: Tx, seed: number | string, prevAsOf: number, asOf: number, to: number): Promise<void> {
  // Sessions that closed after the previous snapshot keep a reduced EOD snapshot; a close that is the new as-of keeps
  // the full chain.
  const eod: number[] = [];
  for (let d = currentSession(prevAsOf); sessionClose(d) < asOf; d = nextSession(d)) {
    if (sessionClose(d) >= prevAsOf) eod.push(d);
  }
  if (isSessionClose(prevAsOf)) {
    // The previous snapshot was a full chain at a close: shrink it to the reduced EOD form.
    await tx.execute(
      sql`delete from option_quotes where env = 'demo' and symbol = any(${symbolsParam()}) and as_of = ${new Date(prevAsOf).toISOString()}::timestamptz`,
    );
  }
  await bulkInsert(tx, "demo", QUOTES, [
    ...eod.flatMap((d) => generateEodChain(seed, d)),
    ...generateChainAt(seed, to),
  ]);
  const first = previousSession(currentSession(prevAsOf));
  const lower = new Date(sessionOpen(first)).toISOString();
  // The end-of-day snapshots in the window stay: 21:00 UTC, or 13:00 New York on an early-close day.
  const keep: string[] = [];
  for (let d = first; d <= currentSession(asOf); d = nextSession(d)) keep.push(new Date(sessionClose(d)).toISOString());
  await tx.execute(sql`
    delete from option_quotes
    where env = 'demo' and symbol = any(${symbolsParam()})
      and as_of >= ${lower}::timestamptz and as_of < ${new Date(asOf).toISOString()}::timestamptz
      and as_of <> all(${`{${keep.join(",")}}`}::timestamptz[])`);
}

async function pruneIntraday(tx: Tx, before: number): Promise<void> {
  const cutoff = new Date(before).toISOString();
  await tx.execute(
    sql`delete from option_trades where env = 'demo' and symbol = any(${symbolsParam()}) and ts < ${cutoff}::timestamptz`,
  );
  await tx.execute(
    sql`delete from bars where env = 'demo' and symbol = any(${symbolsParam()}) and interval = '5m' and ts < ${cutoff}::timestamptz`,
  );
}
