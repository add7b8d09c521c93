/**
 * Auth.js (next-auth v5): e-mail + password (argon2id) and, when AUTH_GITHUB_ID and AUTH_GITHUB_SECRET are set, GitHub.
 * JWT sessions in httpOnly, SameSite=Lax cookies (Secure in production). Failed sign-ins are throttled per e-mail and
 * per client address; a throttled attempt fails with the code `rate_limited:<seconds>` the sign-in form shows.
 */
import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import GitHub from "next-auth/providers/github";
import { verifyCredentials } from "../domain/users";
import { normaliseEmail } from "../domain/accounts";
import { DomainError } from "../domain/errors";
import { takeSigninAttempt } from "../domain/signin-throttle";
import { clientAddress } from "../util/request-origin";
import { errorFields, log } from "../log";
import { portalDb } from "../server/portal-db";
import { portalAdapter } from "./adapter";
import { githubConfigured, secureCookies } from "./settings";

/** The sign-in was refused before the password was checked; `code` carries the seconds to wait. */
export class SigninThrottled extends CredentialsSignin {
  constructor(retryAfterSeconds: number) {
    super();
    this.code = `rate_limited:${retryAfterSeconds}`;
  }
}

async function config(): Promise<NextAuthConfig> {
  const db = await portalDb();
  return {
    trustHost: true,
    secret: process.env.AUTH_SECRET,
    session: { strategy: "jwt", maxAge: 7 * 24 * 3600 },
    useSecureCookies: secureCookies(),
    pages: { signIn: "/signin", error: "/signin" },
    // Auth.js's own messages go through the structured log; a refused sign-in is routine, not an error.
    logger: {
      error: (err) =>
        err instanceof CredentialsSignin
          ? log.info("sign-in refused", { code: err.code })
          : log.error("auth error", errorFields(err)),
      warn: (code) => log.warn("auth warning", { code }),
      debug: () => {},
    },
    adapter: portalAdapter(db),
    providers: [
      Credentials({
        credentials: { email: { type: "email" }, password: { type: "password" } },
        async authorize(credentials, request) {
          const email = typeof credentials?.email === "string" ? credentials.email : "";
          const password = typeof credentials?.password === "string" ? credentials.password : "";
          if (!email || !password) return null;
          let normalised: string;
          try {
            normalised = normaliseEmail(email);
          } catch {
            return null;
          }
          let attempt: Awaited<ReturnType<typeof takeSigninAttempt>>;
          try {
            attempt = await takeSigninAttempt(db, { email: normalised, ip: clientAddress(request) });
          } catch (err) {
            if (err instanceof DomainError && err.code === "rate_limited")
              throw new SigninThrottled(err.detail.retryAfterSeconds ?? 60);
            throw err;
          }
          const user = await verifyCredentials(db, normalised, password);
          if (user) await attempt.release();
          return user;
        },
      }),
      ...(githubConfigured()
        ? [GitHub({ clientId: process.env.AUTH_GITHUB_ID, clientSecret: process.env.AUTH_GITHUB_SECRET })]
        : []),
    ],
    callbacks: {
      // The sign-in time rides in the token (iat changes whenever the cookie is re-issued): a later password change ends the session.
      jwt({ token, user }) {
        if (user) token.authAt = Date.now();
        return token;
      },
      session({ session, token }) {
        if (token.sub && session.user) session.user.id = token.sub;
        return Object.assign(session, {
          authAt: typeof token.authAt === "number" ? token.authAt : (token.iat ?? 0) * 1000,
        });
      },
    },
  };
}

export const { handlers, auth, signIn, signOut } = NextAuth(config);
