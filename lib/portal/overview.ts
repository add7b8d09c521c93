/** The dashboard overview's account facts, scoped to the signed-in user's account. */
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { accounts, plans } from "../../db/schema";
import { DomainError } from "../domain/errors";

export async function accountOverview(db: Db, accountId: string) {
  const [row] = await db
    .select({
      name: accounts.name,
      status: accounts.status,
      createdAt: accounts.createdAt,
      planId: plans.id,
      planA: plans.nameA,
      planB: plans.nameB,
    })
    .from(accounts)
    .innerJoin(plans, eq(plans.id, accounts.planId))
    .where(eq(accounts.id, accountId));
  if (!row) throw new DomainError("not_found", "No such account.");
  return row;
}
