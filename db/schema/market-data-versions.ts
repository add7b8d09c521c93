import { bigint, pgTable } from "drizzle-orm/pg-core";
import { marketEnv, tstz } from "./columns";

/** Bumped on every import or simulator tick; each process polls it to know when to recompute analytics. */
export const marketDataVersions = pgTable("market_data_versions", {
  env: marketEnv("env").primaryKey(),
  version: bigint("version", { mode: "number" }).notNull().default(0),
  updatedAt: tstz("updated_at").notNull().defaultNow(),
});
