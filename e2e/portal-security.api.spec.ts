/**
 * The portal's security edges over real HTTP: session cookie attributes, security headers on pages and on /api/v1,
 * CSRF (cross-origin POSTs refused on every state-changing portal route, Auth.js's token on its own endpoints),
 * authorization (signed out, another user) and bad input on every form route (clear message, nothing written).
 */
import { expect, test, type APIRequestContext } from "@playwright/test";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { freePort } from "../lib/util/free-port";
import { e2eDatabase, e2eDatabaseUrl } from "../tests/helpers/e2e-env";
import { portalOrigin, signUpAndSignIn } from "../tests/helpers/portal";
import { checkSecondUser, checkSignedOut, type PortalAuthzPlan } from "../tests/helpers/portal-authz";

const newEmail = (tag: string) => `${tag}_${randomBytes(5).toString("hex")}@example.com`;
const EVIL = { origin: "https://evil.example" };

/** The routes this part of the portal owns that change state, with a valid body each. */
const STATE_CHANGING = [
  {
    path: "/api/portal/signup",
    body: () => ({ email: newEmail("csrf"), password: "a long enough password", acceptTerms: true }),
  },
  { path: "/api/portal/password-reset", body: () => ({ email: newEmail("csrf") }) },
  {
    path: "/api/portal/password-reset/complete",
    body: () => ({ token: "x".repeat(43), password: "a long enough password" }),
  },
  { path: "/api/portal/verify-email/resend", body: () => ({}) },
  { path: "/api/portal/terms", body: () => ({ version: 1 }) },
];

const AUTHZ: PortalAuthzPlan = {
  routes: [
    { method: "POST", path: "/api/portal/verify-email/resend", body: {} },
    { method: "POST", path: "/api/portal/terms", body: { version: 1 } },
  ],
  pages: ["/dashboard", "/dashboard?verify=required"],
};

async function errorOf(res: Awaited<ReturnType<APIRequestContext["post"]>>) {
  return ((await res.json()) as { error: { code: string; message: string; field?: string } }).error;
}

test("the session cookie is httpOnly, SameSite=Lax and Secure (production)", async ({ request, baseURL }) => {
  const user = await signUpAndSignIn(request, baseURL, newEmail("cookie"));
  const fresh = await request.get("/api/auth/csrf");
  const { csrfToken } = (await fresh.json()) as { csrfToken: string };
  const res = await request.post("/api/auth/callback/credentials", {
    form: { email: user.email, password: user.password, csrfToken },
    maxRedirects: 0,
  });
  const cookie = res
    .headersArray()
    .find((h) => h.name.toLowerCase() === "set-cookie" && /session-token=/.test(h.value));
  expect(cookie, "a session cookie is set").toBeTruthy();
  expect(cookie!.value).toMatch(/^__Secure-authjs\.session-token=/);
  expect(cookie!.value).toMatch(/;\s*HttpOnly/i);
  expect(cookie!.value).toMatch(/;\s*SameSite=Lax/i);
  expect(cookie!.value).toMatch(/;\s*Secure/i);
  expect(cookie!.value).toMatch(/;\s*Path=\//i);
});

test("security headers on a page (nonce CSP) and on an /api/v1 response", async ({ request }) => {
  const page = await request.get("/signin");
  const h = page.headers();
  const csp = h["content-security-policy"];
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce).toBeTruthy();
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'(;|$)/);
  expect(csp).not.toMatch(/https?:/); // no other host
  const html = await page.text();
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(scripts.length).toBeGreaterThan(0);
  for (const s of scripts) expect(s, "every script carries the nonce").toContain(`nonce="${nonce}"`);
  const second = (await request.get("/signin")).headers()["content-security-policy"];
  expect(/'nonce-([^']+)'/.exec(second)?.[1], "a fresh nonce per request").not.toBe(nonce);

  const api = (await request.get("/api/v1/health")).headers();
  expect(api["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
  for (const headers of [h, api]) {
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["strict-transport-security"]).toBe("max-age=63072000; includeSubDomains");
  }
});

test("a cross-origin POST is refused on every state-changing portal route, and writes nothing", {
  tag: "@serial",
}, async ({ request, baseURL }) => {
  const user = await signUpAndSignIn(request, baseURL, newEmail("csrfvictim"));
  const sql = e2eDatabase();
  try {
    const before =
      await sql`select (select count(*)::int from users) as users, (select count(*)::int from auth_verification_tokens) as tokens, (select count(*)::int from audit_log) as audits`;
    const own = new URL(baseURL!);
    const refused: Record<string, string>[] = [
      EVIL,
      { "sec-fetch-site": "cross-site" },
      {},
      // The portal's host and port over another scheme is another origin.
      { origin: `https://${own.host}` },
      // A forged X-Forwarded-Host naming the attacker's host is never consulted.
      { origin: "https://evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
      { origin: "https://evil.example", "x-forwarded-host": "evil.example", "sec-fetch-site": "same-origin" },
    ];
    for (const route of STATE_CHANGING) {
      for (const headers of refused) {
        const res = await request.post(route.path, { data: route.body(), headers });
        expect(res.status(), `${route.path} ${JSON.stringify(headers)}`).toBe(403);
        expect((await errorOf(res)).code).toBe("csrf_rejected");
      }
    }
    const after =
      await sql`select (select count(*)::int from users) as users, (select count(*)::int from auth_verification_tokens) as tokens, (select count(*)::int from audit_log) as audits`;
    expect(after).toEqual(before);
    // The same requests from the portal's own origin work (the check is not refusing everything).
    const ok = await request.post("/api/portal/terms", { data: { version: 1 }, headers: portalOrigin(baseURL) });
    expect(ok.status()).toBe(200);
    expect(user.email).toContain("@");
  } finally {
    await sql.end();
  }
});

test("Auth.js's own endpoints need its CSRF token: no token, no session; sign-out without it keeps the session", async ({
  request,
  playwright,
  baseURL,
}) => {
  const user = await signUpAndSignIn(request, baseURL, newEmail("authcsrf"));
  const other = await playwright.request.newContext({ baseURL });
  try {
    await other.get("/api/auth/csrf");
    const res = await other.post("/api/auth/callback/credentials", {
      form: { email: user.email, password: user.password, csrfToken: "forged" },
      maxRedirects: 0,
    });
    expect(res.headers().location ?? "").toMatch(/error=MissingCSRF/);
    expect(((await (await other.get("/api/auth/session")).json()) as { user?: unknown } | null)?.user).toBeUndefined();
  } finally {
    await other.dispose();
  }
  await request.post("/api/auth/signout", { form: {}, maxRedirects: 0 });
  expect(((await (await request.get("/api/auth/session")).json()) as { user?: { email: string } }).user?.email).toBe(
    user.email,
  );
});

test("authorization: signed out gets 401 or a redirect to sign-in; another user sees only their own account", async ({
  request,
  playwright,
  baseURL,
}) => {
  await checkSignedOut(request, AUTHZ, baseURL);
  await checkSecondUser(playwright, baseURL, AUTHZ);
  const first = await signUpAndSignIn(request, baseURL, newEmail("first"));
  const second = await playwright.request.newContext({ baseURL });
  try {
    const me = await signUpAndSignIn(second, baseURL, newEmail("second"));
    const html = await (await second.get("/dashboard")).text();
    expect(html).toContain(me.email);
    expect(html).not.toContain(first.email);
    expect(html).not.toContain(first.accountId);
  } finally {
    await second.dispose();
  }
});

test("bad input on every form route: a clear message naming the field, nothing written", { tag: "@serial" }, async ({
  request,
  baseURL,
}) => {
  const origin = portalOrigin(baseURL);
  const sql = e2eDatabase();
  try {
    const taken = await signUpAndSignIn(request, baseURL, newEmail("taken"));
    const cases: { path: string; data: unknown; status: number; field?: string; message: RegExp }[] = [
      {
        path: "/api/portal/signup",
        data: { email: "not-an-email", password: "a long enough password", acceptTerms: true },
        status: 400,
        field: "email",
        message: /is not an e-mail address/,
      },
      {
        path: "/api/portal/signup",
        data: { email: newEmail("bad"), password: "short", acceptTerms: true },
        status: 400,
        field: "password",
        message: /10 to 200 characters/,
      },
      {
        path: "/api/portal/signup",
        data: { email: newEmail("bad"), password: "a long enough password", acceptTerms: false },
        status: 400,
        field: "acceptTerms",
        message: /Accept the terms/,
      },
      {
        path: "/api/portal/signup",
        data: { email: newEmail("bad"), password: "a long enough password", acceptTerms: true, admin: true },
        status: 400,
        message: /admin|unrecognized/i,
      },
      {
        path: "/api/portal/password-reset",
        data: { email: "nope" },
        status: 400,
        field: "email",
        message: /is not an e-mail address/,
      },
      { path: "/api/portal/password-reset", data: {}, status: 400, field: "email", message: /email/ },
      {
        path: "/api/portal/password-reset/complete",
        data: { token: "x".repeat(43), password: "a long enough password" },
        status: 400,
        field: "token",
        message: /invalid, already used or expired/,
      },
      {
        path: "/api/portal/password-reset/complete",
        data: { token: "x".repeat(43), password: "short" },
        status: 400,
        field: "password",
        message: /10 to 200 characters/,
      },
      { path: "/api/portal/terms", data: { version: 999 }, status: 400, field: "version", message: /have changed/ },
      { path: "/api/portal/terms", data: { version: "1" }, status: 400, field: "version", message: /version/ },
    ];
    const count = async () =>
      (
        await sql`select (select count(*)::int from users) as users, (select count(*)::int from audit_log) as audits, (select count(*)::int from auth_verification_tokens) as tokens`
      )[0];
    const before = await count();
    for (const c of cases) {
      const res = await request.post(c.path, { data: c.data, headers: origin });
      expect(res.status(), `${c.path} ${JSON.stringify(c.data)}`).toBe(c.status);
      const err = await errorOf(res);
      expect(err.message).toMatch(c.message);
      if (c.field) expect(err.field).toBe(c.field);
    }
    const notJson = await request.post("/api/portal/signup", {
      data: Buffer.from("{not json"),
      headers: { ...origin, "content-type": "application/json" },
    });
    expect(notJson.status()).toBe(400);
    expect((await errorOf(notJson)).message).toBe("The request body is not valid JSON.");
    expect(await count()).toEqual(before);

    // An address that already has an account gets the same answer as a new one (the mail says what happened), and
    // nothing about the existing account changes.
    const hashBefore = await sql`select password_hash from users where email = ${taken.email}`;
    const answers = [];
    for (const email of [taken.email.toUpperCase(), newEmail("fresh")]) {
      const res = await request.post("/api/portal/signup", {
        data: { email, password: "another long password", acceptTerms: true },
        headers: origin,
      });
      answers.push({ status: res.status(), body: await res.json(), email: email.toLowerCase() });
    }
    for (const a of answers) {
      expect(a.status).toBe(202);
      expect(a.body).toEqual({ data: { email: a.email, delivery: "smtp" } });
    }
    expect(await sql`select password_hash from users where email = ${taken.email}`).toEqual(hashBefore);

    await sql`update users set email_verified = now() where email = ${taken.email}`;
    const resend = await request.post("/api/portal/verify-email/resend", { data: {}, headers: origin });
    expect(resend.status()).toBe(409);
    expect((await errorOf(resend)).message).toBe("Your e-mail address is already verified.");
  } finally {
    await sql.end();
  }
});

test("resend with the mail server down answers 503 with a clear message", async ({ request, baseURL }) => {
  // The e2e SMTP server (e2e/serve.mjs) answers 421, service not available, for `unreachable_` addresses.
  await signUpAndSignIn(request, baseURL, newEmail("unreachable"));
  const res = await request.post("/api/portal/verify-email/resend", { data: {}, headers: portalOrigin(baseURL) });
  expect(res.status()).toBe(503);
  expect(await errorOf(res)).toEqual({
    code: "mail_unavailable",
    message: "The mail server could not be reached; try again in a few minutes.",
  });
});

test("the production server refuses to start without AUTH_SECRET, with a one-line reason", async () => {
  const env: Record<string, string | undefined> = { ...process.env, NODE_ENV: "production", PORT: undefined };
  delete env.AUTH_SECRET;
  delete env.DATABASE_URL;
  const child = spawn("node_modules/.bin/next", ["start", "-p", String(await freePort()), "-H", "127.0.0.1"], {
    env: env as NodeJS.ProcessEnv,
  });
  let stderr = "";
  child.stderr.on("data", (c) => (stderr += c));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  expect(code).toBe(1);
  expect(stderr.trim().split("\n")).toEqual([expect.stringMatching(/^AUTH_SECRET is required in production: /)]);
});

test("without AUTH_GITHUB_ID/SECRET only the credentials provider is offered", async ({ request }) => {
  const providers = (await (await request.get("/api/auth/providers")).json()) as Record<string, unknown>;
  expect(Object.keys(providers)).toEqual(["credentials"]);
  expect(await (await request.get("/signin")).text()).not.toContain("Continue with GitHub");
});

test("with AUTH_GITHUB_ID and AUTH_GITHUB_SECRET set, GitHub sign-in is offered and starts GitHub's OAuth flow", async ({
  playwright,
}) => {
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: "production",
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    DATABASE_URL: e2eDatabaseUrl(),
    AUTH_GITHUB_ID: "Iv1.e2e-client-id",
    AUTH_GITHUB_SECRET: "e2e-client-secret",
    DEMO_TICKER: "off",
    MAIL_TO_LOG: "on", // production without SMTP_URL starts only when told to log mail links
    PORT: undefined,
  };
  const child = spawn("node_modules/.bin/next", ["start", "-p", String(port), "-H", "127.0.0.1"], {
    env: env as NodeJS.ProcessEnv,
    detached: true,
  });
  const baseURL = `http://127.0.0.1:${port}`;
  const api = await playwright.request.newContext({ baseURL });
  try {
    await expect
      .poll(async () => (await api.get("/api/auth/providers").catch(() => null))?.status() ?? 0, { timeout: 60_000 })
      .toBe(200);
    const providers = (await (await api.get("/api/auth/providers")).json()) as Record<string, unknown>;
    expect(Object.keys(providers).sort()).toEqual(["credentials", "github"]);
    expect(await (await api.get("/signin")).text()).toContain("Continue with GitHub");
    const { csrfToken } = (await (await api.get("/api/auth/csrf")).json()) as { csrfToken: string };
    const res = await api.post("/api/auth/signin/github", {
      form: { csrfToken, callbackUrl: "/dashboard" },
      maxRedirects: 0,
    });
    const location = new URL(res.headers().location ?? "");
    expect(location.origin + location.pathname).toBe("https://github.com/login/oauth/authorize");
    expect(location.searchParams.get("client_id")).toBe("Iv1.e2e-client-id");
    const redirect = new URL(location.searchParams.get("redirect_uri") ?? "");
    expect([redirect.port, redirect.pathname]).toEqual([String(port), "/api/auth/callback/github"]);
  } finally {
    await api.dispose();
    process.kill(-child.pid!, "SIGTERM");
    await new Promise((resolve) => child.on("exit", resolve));
  }
});
