/** The plan catalogue as the database holds it (the gateway enforces these rows; pages show the same rows). */
import { asc } from "drizzle-orm";
import type { Db } from "../db/client";
import { plans } from "../../db/schema";

export type PlanRow = typeof plans.$inferSelect;

export async function listPlans(db: Db): Promise<PlanRow[]> {
  return db.select().from(plans).orderBy(asc(plans.rank));
}
