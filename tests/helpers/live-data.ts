/** Writes a small live market (a few symbols of the simulator, through the validated import path) into env "live". */
import type { Db } from "../../lib/db/client";
import type { OptionTrade } from "../../lib/analytics/types";
import { EXPIRY_CLOSE_LOCAL_HOUR, isTradingDay, sessionCloseHour } from "../../lib/analytics/exchange-calendar";
import { generateDemoMarket } from "../../lib/market/demo/simulator";
import { writeRows } from "../../lib/market/import";
import { setLicensing } from "../../lib/domain/licensing";
import { adminActor } from "../../lib/domain/audit";
import { accountWithKey } from "./accounts";

export const LIVE_SEED = "live-fixture-seed";

/**
 * The most recent Friday 21:00 UTC at least an hour before `now` whose session was a full one (not a holiday, not an
 * early close such as the day after Thanksgiving): a finished, ordinary session whatever day the suite runs.
 */
export function lastFridayClose(now: Date): Date {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 21));
  const fullSession = (t: Date) => {
    const date = t.toISOString().slice(0, 10);
    return isTradingDay(date) && sessionCloseHour(date) === EXPIRY_CLOSE_LOCAL_HOUR;
  };
  while (d.getUTCDay() !== 5 || d.getTime() > now.getTime() - 3_600_000 || !fullSession(d))
    d.setUTCDate(d.getUTCDate() - 1);
  return d;
}

export async function writeLiveMarket(db: Db, symbols: string[], at: Date) {
  const m = generateDemoMarket({ seed: LIVE_SEED, now: at, symbols });
  for (const [kind, rows] of [
    ["instruments", m.instruments],
    ["treasury", m.yields],
    ["bars", m.dailyBars],
    ["chain", [...m.chainHistory, ...m.chain]],
    ["trades", m.trades],
  ] as const) {
    const result = await writeRows(db, kind, rows as never[], "live");
    if (!result.ok) throw new Error(`live ${kind}: ${JSON.stringify(result.errors.slice(0, 3))}`);
  }
  return m;
}

/** One print on a listed contract at `ts`, so the symbol's newest data is that recent. */
export function printAt(m: ReturnType<typeof generateDemoMarket>, symbol: string, ts: Date, id: string): OptionTrade {
  // A contract not expired on the print's date: the import refuses a print 36 h past its expiry day (a weekly
  // expiring the day before a weekend print).
  const day = ts.toISOString().slice(0, 10);
  const q = m.chain.find((c) => c.symbol === symbol && c.bid > 0.5 && c.expiry >= day)!;
  return {
    tradeId: id,
    symbol,
    ts,
    expiry: q.expiry,
    strike: q.strike,
    right: q.right,
    price: q.ask,
    size: 3,
    exchange: "CBOE",
    condition: "AUTO",
    bid: q.bid,
    ask: q.ask,
  };
}

/** A Pro live key, with the options-flow route licensed for live keys (it ships pending licensing). */
export async function liveKeyWithFlow(db: Db): Promise<string> {
  const { key } = await accountWithKey(db, { plan: "pro", env: "live" });
  await setLicensing(
    db,
    { path: "/api/v1/options-flow", env: "live", state: "enabled", reason: "licensed in this test" },
    adminActor("test"),
  );
  return key;
}
