/** Portal users for end-to-end tests: signed up and signed in through the portal's HTTP API (not the UI), per test. */
import { randomBytes } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";

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
  if (res.status() !== 201) throw new Error(`sign-up failed: ${res.status()} ${await res.text()}`);
  const { data } = (await res.json()) as { data: { accountId: string } };
  await signIn(request, email, password);
  return { email, password, accountId: data.accountId };
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
