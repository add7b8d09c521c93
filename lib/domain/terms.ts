/**
 * The terms of use a developer accepts at sign-up; raising TERMS_VERSION asks every user again at their next sign-in.
 */
import "server-only";
import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { memberships, users } from "../../db/schema";
import { recordAudit, type Actor } from "./audit";
import { DomainError } from "./errors";

export const TERMS_VERSION = 1;

export const TERMS_POINTS = [
  "The service provides educational market analysis. It is not financial advice, and nothing it returns is a recommendation to buy or sell.",
  "Show the disclaimer that comes with every response to your end users wherever you display the analytics.",
  "Do not resell or redistribute the output, raw or derived, as a data product of your own.",
  "Use one API key per application; keys are not to be shared across applications or with third parties.",
] as const;

/**
 * Why /terms asks a signed-in user to accept, from the version they last accepted: never accepted (a new account made
 * without the sign-up form's checkbox: through GitHub, by an operator's CLI or the demo) or an older version.
 */
export function termsGateReason(accepted: number | null): string {
  if (accepted === null)
    return "Your new account has not accepted the terms of use yet. Accept them once to open the dashboard.";
  return `The terms of use changed since you accepted version ${accepted}. Accept version ${TERMS_VERSION} to open the dashboard.`;
}

/** Records that the user accepted the current terms (version and time), audited. */
export async function acceptTerms(
  db: Db,
  userId: string,
  version: number,
  actor: Actor,
): Promise<{ termsVersion: number; termsAcceptedAt: string }> {
  if (version !== TERMS_VERSION)
    throw new DomainError(
      "invalid",
      `These terms have changed (now version ${TERMS_VERSION}); reload the page and read them again.`,
      { field: "version" },
    );
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ version: users.termsVersion })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!before) throw new DomainError("not_found", "No such user.");
    const acceptedAt = new Date();
    await tx.update(users).set({ termsVersion: version, termsAcceptedAt: acceptedAt }).where(eq(users.id, userId));
    const [m] = await tx
      .select({ accountId: memberships.accountId })
      .from(memberships)
      .where(eq(memberships.userId, userId))
      .orderBy(asc(memberships.createdAt))
      .limit(1);
    await recordAudit(tx, {
      actor,
      accountId: m?.accountId ?? null,
      action: "user.accept_terms",
      target: `user:${userId}`,
      before: { termsVersion: before.version },
      after: { termsVersion: version, acceptedAt: acceptedAt.toISOString() },
    });
    return { termsVersion: version, termsAcceptedAt: acceptedAt.toISOString() };
  });
}
