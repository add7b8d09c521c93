/**
 * The demo ticker at rest (no requests): an engine with the ticker on, in this process, on a clock that runs in real
 * time from the stored market's as-of (a time inside a session, so every 5-second tick writes prints, bars and, once
 * a minute, a new chain snapshot, and the engine reloads and recomputes). Measures this process's CPU (ticker writes,
 * engine loads and recomputes) and the benchmark database's backends over the window.
 */
import type { Database } from "../lib/db/client";
import { startMarketEngine } from "../lib/engine/engine";
import { readMarketVersions } from "../lib/market/versions";
import { startCpu } from "./cpu";
import { DEMO_SEED } from "./setup";

export interface TickerResult {
  seconds: number;
  /** Cores used on average by this process (ticker + engine) and by the database's backends. */
  nodeCores: number;
  postgresCores: number;
  /** Market versions written during the window (one per tick that wrote something). */
  versions: number;
  simulatedFrom: string;
}

export async function benchTicker(database: Database, databaseName: string, seconds = 60): Promise<TickerResult> {
  const [row] = await database.sql`select max(as_of) as as_of from option_quotes where env = 'demo' and symbol = 'SPX'`;
  const storedAt = new Date(row.as_of as Date).getTime();
  const offset = Date.now() - (storedAt + 1000);
  const now = () => new Date(Date.now() - offset);
  const engine = await startMarketEngine(database, { seed: DEMO_SEED, demoTicker: true, now });
  try {
    await new Promise((r) => setTimeout(r, 12_000)); // two ticks: the first reloads after the engine bench's writes
    const v0 = (await readMarketVersions(database.db)).demo;
    const cpu = startCpu(process.pid, databaseName);
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const c = cpu.stop();
    const v1 = (await readMarketVersions(database.db)).demo;
    return {
      seconds,
      nodeCores: c.serverCores,
      postgresCores: c.postgresCores,
      versions: v1 - v0,
      simulatedFrom: new Date(storedAt).toISOString(),
    };
  } finally {
    await engine.stop();
  }
}
