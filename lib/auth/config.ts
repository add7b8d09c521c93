/**
 * Auth.js (next-auth v5): e-mail + password (argon2id) and, when AUTH_GITHUB_ID and AUTH_GITHUB_SECRET are set, GitHub.
 * Encrypted JWT cookies (httpOnly, SameSite=Lax, Secure in production) that carry a session id checked against
 * portal_sessions on every use (lib/domain/sessions.ts), so sign-out, "sign out everywhere", a password change, 24 h idle
 * and 7 days after sign-in all end a session whatever the cookie says. Failed sign-ins wait growing delays per e-mail
 * and count per client address (lib/domain/signin-throttle.ts); a throttled attempt fails with the code
 * `rate_limited:<seconds>` the sign-in form shows. Every sign-in, failed sign-in and sign-out is audited.
 */
import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import GitHub from "next-auth/providers/github";
import { checkSignIn } from "../domain/users";
import type { Db } from "../db/client";
import { normaliseEmail } from "../domain/accounts";
import { recordAudit } from "../domain/audit";
import { DomainError } from "../domain/errors";
import { takeSigninAttempt } from "../domain/signin-throttle";
import { checkSession, endSession, SESSION_IDLE_SECONDS, startSession } from "../domain/sessions";
import { requestIdFrom } from "../util/request-id";
import { clientAddress } from "../security/client-address";
import { sameOriginPath } from "../security/redirect";
import { errorFields, log } from "../log";
import { portalDb } from "../server/portal-db";
import { portalAdapter } from "./adapter";
import { PASSWORD_MAX } from "../crypto/password";
import { githubConfigured, secureCookies } from "./settings";

/** The password was right but every account of the person is deactivated: the form says so (code `account_deactivated`). */
export class SigninDeactivated extends CredentialsSignin {
  code = "account_deactivated";
}

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
    // The cookie lives as long as the idle timeout; the session table caps the absolute lifetime at 7 days.
    session: { strategy: "jwt", maxAge: SESSION_IDLE_SECONDS },
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
        authorize: (credentials, request) => authorizeCredentials(db, credentials, request),
      }),
      ...(githubConfigured()
        ? [GitHub({ clientId: process.env.AUTH_GITHUB_ID, clientSecret: process.env.AUTH_GITHUB_SECRET })]
        : []),
    ],
    callbacks: {
      // Only same-origin paths: resolved against this site's origin, anything else goes to the dashboard.
      redirect({ url, baseUrl }) {
        const path = url.startsWith(baseUrl) ? url.slice(baseUrl.length) || "/" : url;
        return `${baseUrl}${sameOriginPath(path, baseUrl)}`;
      },
      async jwt({ token, user }) {
        if (user) {
          token.authAt = Date.now();
          const sid = (user as { sid?: string }).sid;
          token.sid = sid ?? (user.id ? await startSession(db, user.id) : undefined);
          return token;
        }
        // Every use of the cookie asks the session table; an ended session clears the cookie.
        const sid = typeof token.sid === "string" ? token.sid : "";
        if (!token.sub || !(await checkSession(db, sid, token.sub))) return null;
        return token;
      },
      session({ session, token }) {
        if (token.sub && session.user) session.user.id = token.sub;
        return Object.assign(session, {
          authAt: typeof token.authAt === "number" ? token.authAt : (token.iat ?? 0) * 1000,
          sid: typeof token.sid === "string" ? token.sid : undefined,
        });
      },
    },
    events: {
      async signIn({ user, account }) {
        if (account?.provider !== "credentials" && user.id && user.email)
          await audit(db, "auth.signin", user.email, { requestId: undefined }, user.id, {
            provider: account?.provider,
          });
      },
      async signOut(message) {
        const token = "token" in message ? message.token : null;
        if (!token) return;
        if (typeof token.sid === "string") await endSession(db, token.sid, "sign_out");
        if (token.sub) await audit(db, "auth.signout", token.email ?? "", {}, token.sub);
      },
    },
  };
}

export const { handlers, auth, signIn, signOut } = NextAuth(config);

/** The e-mail and password sign-in: throttled, checked, audited; a session id for the cookie when it succeeds. */
async function authorizeCredentials(
  db: Db,
  credentials: Partial<Record<string, unknown>> | undefined,
  request: Request,
) {
  const email = typeof credentials?.email === "string" ? credentials.email : "";
  const password = typeof credentials?.password === "string" ? credentials.password : "";
  // A password longer than any we store is wrong without hashing it (argon2 over megabytes is a cost lever).
  if (!email || !password || email.length > 320 || password.length > PASSWORD_MAX) return null;
  let normalised: string;
  try {
    normalised = normaliseEmail(email);
  } catch {
    return null;
  }
  const origin = {
    requestId: requestIdFrom(request.headers),
    ip: clientAddress(request),
    userAgent: request.headers.get("user-agent") ?? undefined,
  };
  let attempt: Awaited<ReturnType<typeof takeSigninAttempt>>;
  try {
    attempt = await takeSigninAttempt(db, { email: normalised, ip: origin.ip });
  } catch (err) {
    if (err instanceof DomainError && err.code === "rate_limited") {
      await audit(db, "auth.signin_throttled", normalised, origin);
      throw new SigninThrottled(err.detail.retryAfterSeconds ?? 60);
    }
    throw err;
  }
  const checked = await checkSignIn(db, normalised, password);
  if (checked.kind === "deactivated") {
    // The right password: no growing delay for the person, told why they cannot sign in.
    await attempt.release();
    await audit(db, "auth.signin_failure", normalised, origin, undefined, { reason: "account_deactivated" });
    throw new SigninDeactivated();
  }
  if (checked.kind === "wrong") {
    await audit(db, "auth.signin_failure", normalised, origin);
    return null;
  }
  const { user } = checked;
  await attempt.release();
  await audit(db, "auth.signin", normalised, origin, user.id);
  return { ...user, sid: await startSession(db, user.id, origin) };
}

/** One audit row for a sign-in, failed sign-in or sign-out; a failed write is logged, never fails the sign-in. */
async function audit(
  db: Db,
  action: string,
  email: string,
  origin: { requestId?: string; ip?: string; userAgent?: string },
  userId?: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  try {
    await recordAudit(db, {
      actor: { type: "user", id: userId ?? `email:${email}`, ...origin },
      action,
      target: userId ? `user:${userId}` : `email:${email}`,
      after: { email, ...extra },
    });
  } catch (err) {
    log.error("audit write failed", { action, ...errorFields(err) });
  }
}
