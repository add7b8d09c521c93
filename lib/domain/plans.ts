/** The plan catalogue as the portal shows it, and the self-serve plan change (payment collection is out of scope). */
import "server-only";
import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { accounts, plans, users } from "../../db/schema";
import { getAccount, setAccountPlan } from "./accounts";
import type { Actor } from "./audit";
import { DomainError } from "./errors";
import { parseInput } from "./input";
import { planBody } from "../contract/portal-inputs";

export type PlanRow = typeof plans.$inferSelect;

export async function listPlans(db: Db): Promise<PlanRow[]> {
  return db.select().from(plans).orderBy(asc(plans.rank));
}

export async function currentPlan(db: Db, accountId: string): Promise<PlanRow> {
  const [row] = await db
    .select({ plan: plans })
    .from(accounts)
    .innerJoin(plans, eq(plans.id, accounts.planId))
    .where(eq(accounts.id, accountId));
  if (!row) throw new DomainError("not_found", "No such account.");
  return row.plan;
}

/**
 * Changes the account's plan at once for every key (gateways re-read a key's plan within their cache lifetime);
 * audited.
 */
export async function changeOwnPlan(db: Db, input: { accountId: string; plan: unknown }, actor: Actor) {
  const { plan } = parseInput(planBody, { plan: input.plan }); // bad input is a 400 before any 403
  const account = await getAccount(db, input.accountId);
  if (account.planId === plan)
    throw new DomainError("conflict", "The account is already on this plan.", { field: "plan" });
  if (plan !== "sandbox" && actor.type === "user" && !(await verifiedUser(db, actor.id)))
    throw new DomainError("forbidden", "Verify your e-mail address before choosing a paid plan.", { field: "plan" });
  return setAccountPlan(db, input.accountId, plan, actor);
}

/** Paid plans (and with them webhooks to any URL) need a verified address: issue 30, docs/security.md. */
async function verifiedUser(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ at: users.emailVerified }).from(users).where(eq(users.id, userId));
  return Boolean(row?.at);
}
