import { pgEnum, timestamp } from "drizzle-orm/pg-core";

/** Which store a row belongs to: the service's synthetic market, or imported licensed data. */
export const marketEnv = pgEnum("market_env", ["demo", "live"]);
/** A key's environment; test keys read the demo store, live keys the live store. */
export const keyEnv = pgEnum("key_env", ["test", "live"]);

export const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
