import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { marketDataVersions } from "../../db/schema";
import type { MarketEnv } from "../analytics/types";

type Executor = Pick<Db, "execute" | "insert">;

/** Marks an environment's market data as changed; every process recomputes its analytics when it sees a new version. */
export async function bumpMarketVersion(db: Executor, env: MarketEnv): Promise<number> {
  const rows = await db
    .insert(marketDataVersions)
    .values({ env, version: 1 })
    .onConflictDoUpdate({ target: marketDataVersions.env, set: { version: sql`${marketDataVersions.version} + 1`, updatedAt: sql`now()` } })
    .returning({ version: marketDataVersions.version });
  return rows[0].version;
}

export async function readMarketVersions(db: Pick<Db, "select">): Promise<Record<MarketEnv, number>> {
  const rows = await db.select().from(marketDataVersions);
  const out: Record<MarketEnv, number> = { demo: 0, live: 0 };
  for (const r of rows) out[r.env] = r.version;
  return out;
}
