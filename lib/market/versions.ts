import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { marketDataVersions } from "../../db/schema";
import type { MarketEnv } from "../analytics/types";

type Executor = Pick<Db, "execute" | "insert">;

/**
 * Marks an environment's market data as changed; every process recomputes its analytics when it sees a new version.
 * `append` says the write only added newer data (a demo tick): existing rows are as they were, so readers holding a
 * snapshot may read just what is newer. Anything else (imports, seeds, pruning) is a `rebase`.
 */
export async function bumpMarketVersion(
  db: Executor,
  env: MarketEnv,
  kind: "rebase" | "append" = "rebase",
): Promise<number> {
  const next = sql`${marketDataVersions.version} + 1`;
  const rows = await db
    .insert(marketDataVersions)
    .values({ env, version: 1, baseVersion: 1 })
    .onConflictDoUpdate({
      target: marketDataVersions.env,
      set: { version: next, updatedAt: sql`now()`, ...(kind === "rebase" ? { baseVersion: next } : {}) },
    })
    .returning({ version: marketDataVersions.version });
  return rows[0].version;
}

export async function readMarketVersions(db: Pick<Db, "select">): Promise<Record<MarketEnv, number>> {
  const rows = await db.select().from(marketDataVersions);
  const out: Record<MarketEnv, number> = { demo: 0, live: 0 };
  for (const r of rows) out[r.env] = r.version;
  return out;
}
