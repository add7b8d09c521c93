/** Portal users for end-to-end tests: signed up and signed in through the portal's HTTP API (not the UI), per test. */
import { randomBytes } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { e2eDatabase } from "./e2e-env";

export interface PortalTestUser {
  email: string;
  password: string;
  accountId: string;
}

/** The Origin header a browser would send from the portal's own pages (the same-origin check on state changes). */
export function portalOrigin(baseURL: string | undefined): Record<string, string> {
  return { origin: new URL(baseURL ?? "http://127.0.0.1:3100").origin };
}

/** Signs a fresh user up and leaves `request` (use `page.request` to share the browser's cookies) signed in. */
export async function signUpAndSignIn(
  request: APIRequestContext,
  baseURL?: string,
  email = `dev_${randomBytes(5).toString("hex")}@example.com`,
): Promise<PortalTestUser> {
  const password = `pw-${randomBytes(9).toString("base64url")}`;
  const res = await request.post("/api/portal/signup", {
    data: { email, password, acceptTerms: true },
    headers: portalOrigin(baseURL),
  });
  // 202 whether or not the address had an account (the answer says nothing about it); signing in tells.
  if (res.status() !== 202) throw new Error(`sign-up failed: ${res.status()} ${await res.text()}`);
  await signIn(request, email, password);
  return { email, password, accountId: await settledSignUp(email) };
}

/**
 * The account a signed-up user owns, read from the e2e server's database (no answer of the portal names it), once the
 * queued verification mail has issued its token: specs that count rows start from a settled database.
 */
async function settledSignUp(email: string): Promise<string> {
  const sql = e2eDatabase();
  const address = email.toLowerCase();
  try {
    const [row] = await sql<{ id: string }[]>`
      select m.account_id as id from memberships m join users u on u.id = m.user_id
      where u.email = ${address} and m.role = 'owner'`;
    if (!row) throw new Error(`no account owned by ${email}`);
    for (let waited = 0; waited < 10_000; waited += 50) {
      const [token] = await sql`select 1 from auth_verification_tokens where identifier = ${`verify:${address}`}`;
      if (token) return row.id;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the verification mail for ${email} was not queued within 10 s`);
  } finally {
    await sql.end();
  }
}

export async function signIn(request: APIRequestContext, email: string, password: string): Promise<void> {
  const csrf = (await (await request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const res = await request.post("/api/auth/callback/credentials", {
    form: { email, password, csrfToken: csrf.csrfToken },
    maxRedirects: 0,
  });
  if (res.status() >= 400) throw new Error(`sign-in failed: ${res.status()}`);
  const session = (await (await request.get("/api/auth/session")).json()) as { user?: { email?: string } } | null;
  if (session?.user?.email !== email) throw new Error(`sign-in did not create a session for ${email}`);
}
