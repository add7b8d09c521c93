/**
 * Auth.js (next-auth v5): e-mail + password (argon2id) and, when configured, GitHub. JWT sessions in httpOnly,
 * SameSite=Lax cookies (Secure in production). The drizzle adapter stores OAuth links in the auth_* tables.
 */
import NextAuth, { type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { DrizzleAdapter } from "@auth/drizzle-adapter";
import { authAccounts, authSessions, authVerificationTokens, users } from "../../db/schema";
import { verifyCredentials } from "../domain/users";
import { portalDb } from "../server/portal-db";

const production = process.env.NODE_ENV === "production" && process.env.AUTH_INSECURE_COOKIES !== "true";

async function config(): Promise<NextAuthConfig> {
  const db = await portalDb();
  return {
    trustHost: true,
    secret: process.env.AUTH_SECRET,
    session: { strategy: "jwt", maxAge: 7 * 24 * 3600 },
    useSecureCookies: production,
    pages: { signIn: "/signin" },
    adapter: DrizzleAdapter(db, {
      usersTable: users as never, accountsTable: authAccounts as never, sessionsTable: authSessions as never, verificationTokensTable: authVerificationTokens as never,
    }),
    providers: [
      Credentials({
        credentials: { email: { type: "email" }, password: { type: "password" } },
        async authorize(credentials) {
          const email = typeof credentials?.email === "string" ? credentials.email : "";
          const password = typeof credentials?.password === "string" ? credentials.password : "";
          if (!email || !password) return null;
          return verifyCredentials(db, email, password);
        },
      }),
    ],
    callbacks: {
      session({ session, token }) {
        if (token.sub && session.user) session.user.id = token.sub;
        return session;
      },
    },
  };
}

export const { handlers, auth, signIn, signOut } = NextAuth(config);
