/**
 * The drizzle adapter on the auth_* tables, with createUser replaced: a person arriving through GitHub gets the
 * user, a new Sandbox account and the owner membership in one transaction, like sign-up. No terms are recorded, so
 * the portal asks for them before the dashboard.
 */
import { eq } from "drizzle-orm";
import type { Adapter, AdapterUser } from "next-auth/adapters";
import { DrizzleAdapter } from "@auth/drizzle-adapter";
import type { Db } from "../db/client";
import { authAccounts, authSessions, authVerificationTokens, users } from "../../db/schema";
import { createAccountInTx, normaliseEmail } from "../domain/accounts";

export function portalAdapter(db: Db): Adapter {
  const base = DrizzleAdapter(db, {
    usersTable: users,
    accountsTable: authAccounts,
    sessionsTable: authSessions,
    verificationTokensTable: authVerificationTokens,
  });
  return {
    ...base,
    async createUser(user: AdapterUser): Promise<AdapterUser> {
      const email = normaliseEmail(user.email);
      return db.transaction(async (tx) => {
        const view = await createAccountInTx(
          tx,
          { email, plan: "sandbox", name: user.name ?? undefined, emailVerified: user.emailVerified ?? null },
          { type: "self" },
        );
        if (user.image) await tx.update(users).set({ image: user.image }).where(eq(users.id, view.userId));
        return {
          id: view.userId,
          email,
          emailVerified: user.emailVerified ?? null,
          name: user.name ?? null,
          image: user.image ?? null,
        };
      });
    },
  };
}
