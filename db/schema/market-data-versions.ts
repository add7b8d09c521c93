import { bigint, pgTable } from "drizzle-orm/pg-core";
import { marketEnv, tstz } from "./columns";

/**
 * Bumped on every import or simulator tick; each process polls it to know when to recompute analytics.
 * `baseVersion` is the version of the last write that could change existing rows (seed, import, a session roll-over);
 * ticks in between only append (new prints, a newer chain snapshot, the current bars), so a process holding a snapshot
 * of the same base may load just what is newer.
 */
export const marketDataVersions = pgTable("market_data_versions", {
  env: marketEnv("env").primaryKey(),
  version: bigint("version", { mode: "number" }).notNull().default(0),
  baseVersion: bigint("base_version", { mode: "number" }).notNull().default(0),
  updatedAt: tstz("updated_at").notNull().defaultNow(),
});
