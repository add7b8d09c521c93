/**
 * The benchmark's throwaway database: migrated, reference data + the demo market seeded, one account with several
 * test keys, and the Sandbox plan's limits raised to 1e9 (and its history window to 400 days) so the load measures the
 * pipeline, not 429s.
 */
import { sql } from "drizzle-orm";
import { endpointCatalogue } from "../lib/api/routes";
import { createKey } from "../lib/domain/keys";
import { systemActor } from "../lib/domain/audit";
import { seedReferenceData } from "../lib/domain/seed";
import type { SeedResult } from "../lib/market/demo-market-writer";
import { seedDemoMarketWithHistory } from "../lib/engine/history";
import { currentSession, isWeekday, dayStart, sessionClose, sessionOpen } from "../lib/market/demo/calendar";
import { accountWithKey } from "../fixtures/accounts";
import { createTestDatabase, type TestDatabase } from "../fixtures/test-db";

export const DEMO_SEED = "options-research-demo-v1";
export const RAISED_LIMIT = 1_000_000_000;

export interface BenchFixture {
  database: TestDatabase;
  keys: string[];
  seedAt: Date;
  seed: SeedResult;
}

/**
 * The demo market is seeded at a time inside a session (now when the demo market is open, otherwise the last session's
 * 17:30 UTC), so that advancing it by a minute really writes a new chain snapshot and trades for the engine timing.
 */
export function seedTime(now = Date.now()): number {
  const today = dayStart(now);
  if (isWeekday(today) && now >= sessionOpen(today) && now < sessionClose(today) - 5 * 60_000)
    return Math.floor(now / 60_000) * 60_000;
  return sessionOpen(currentSession(now)) + 3 * 60 * 60_000;
}

export async function createFixture(keyCount: number, onDatabase: (db: TestDatabase) => void): Promise<BenchFixture> {
  const database = await createTestDatabase("bench");
  onDatabase(database); // registered for cleanup before anything else can fail
  await seedReferenceData(database.db, endpointCatalogue());
  const seedAt = new Date(seedTime());
  const seed = await seedDemoMarketWithHistory(database.db, { seed: DEMO_SEED, now: seedAt });
  const first = await accountWithKey(database.db, { plan: "sandbox", env: "test" });
  const keys = [first.key];
  for (let i = 1; i < keyCount; i++) {
    keys.push(
      (
        await createKey(
          database.db,
          { accountId: first.accountId, env: "test", name: `bench key ${i + 1}` },
          systemActor("bench"),
        )
      ).key,
    );
  }
  // Plans are data: test keys are metered on the Sandbox plan, whose limits this throwaway database raises.
  await database.db.execute(sql`
    update plans set a_per_minute = ${RAISED_LIMIT}, a_per_month = ${RAISED_LIMIT}, b_per_minute = ${RAISED_LIMIT}, b_per_day = ${RAISED_LIMIT},
      history_days = 400
    where id = 'sandbox'`);
  return { database, keys, seedAt, seed };
}
