/**
 * Issue 30 items 3–5 over real HTTP: the one input rule (no control character in any path, query or body string; ids
 * shaped like ids) on every portal, admin and API route, enumerated from the app's files
 * (tests/helpers/route-surface.ts): 400 or 404 in the family's shape, never 500. Sign-up with a NUL in the name
 * answers the same for a taken and a free address and writes nothing; the audit export refuses before its 200;
 * malformed percent-encoding on pages gets a 400 page with the security headers; idle half-open connections to
 * `next start` are capped per client.
 */
import { expect, test, type APIRequestContext } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { apiRoutes, appRoutes, fillPath, hasSegments } from "../tests/helpers/route-surface";
import { e2eCli, verifyEmail } from "../tests/helpers/e2e-cli";
import { e2eDatabase } from "../tests/helpers/e2e-env";
import { portalOrigin, signUpAndSignIn } from "../tests/helpers/portal";
import { readFileSync } from "node:fs";

const WELL_FORMED_ID = "00000000-0000-4000-8000-000000000000";
const MALFORMED_IDS = ["not-a-uuid", "%00", "x%00y", "a%01b", "%E0"];
const NUL_QUERY = "probe=%00";

interface Answer {
  status: number;
  code?: string;
  message?: string;
}

async function answer(res: Awaited<ReturnType<APIRequestContext["fetch"]>>): Promise<Answer> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { error?: { code: string; message: string } };
    return { status: res.status(), code: body.error?.code, message: body.error?.message };
  } catch {
    return { status: res.status(), message: text.slice(0, 200) };
  }
}

const send = (
  request: APIRequestContext,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
) =>
  request.fetch(path, {
    method,
    headers: { "content-type": "application/json", ...headers },
    data: body,
    maxRedirects: 0,
  });

/** A signed-in owner with a verified address and the admin flag: every portal and admin route reaches its input. */
async function adminOwner(request: APIRequestContext, baseURL: string | undefined) {
  const user = await signUpAndSignIn(request, baseURL);
  for (const args of [
    ["user", "verify", "--email", user.email],
    ["admin", "grant", "--email", user.email],
  ]) {
    const r = await e2eCli(baseURL, ...args);
    expect(r.code, r.stderr).toBe(0);
  }
  // Pro: a route whose plan check wins over a bad body (webhooks) reaches its input too.
  const pro = await request.put("/api/portal/plan", { data: { plan: "pro" }, headers: portalOrigin(baseURL) });
  expect(pro.status()).toBe(200);
  return user;
}

test("the route surface is found in the app's files", () => {
  expect(appRoutes("portal").length).toBeGreaterThanOrEqual(25);
  expect(appRoutes("admin").length).toBeGreaterThanOrEqual(15);
  expect(apiRoutes().map((r) => `${r.method} ${r.template}`)).toEqual(
    expect.arrayContaining(["POST /api/v1/alerts", "GET /api/v1/alerts/{webhookId}/deliveries", "GET /api/v1/health"]),
  );
});

test("portal and admin routes: a control character anywhere is a 400, a malformed id a 400 or 404, never 500", async ({
  request,
  baseURL,
}) => {
  test.setTimeout(240_000);
  await adminOwner(request, baseURL);
  const origin = portalOrigin(baseURL);
  for (const r of [...appRoutes("portal"), ...appRoutes("admin")]) {
    const path = fillPath(r.template, () => WELL_FORMED_ID);
    const label = `${r.method} ${r.template}`;
    const q = await answer(
      await send(request, r.method, `${path}?${NUL_QUERY}`, origin, r.method === "GET" ? undefined : "{}"),
    );
    expect(q.status, `${label} NUL in the query: ${q.message}`).toBe(400);
    expect(q.code, label).toBe("invalid");
    expect(q.message, label).toMatch(/control character/);
    if (r.method !== "GET" && /\bbody:\s*\w/.test(readFileSync(r.file, "utf8"))) {
      const b = await answer(await send(request, r.method, path, origin, JSON.stringify({ value: "x\u0000" })));
      // A method that reads no body on a placeholder id answers the id's 404 first; never a 500.
      if (!(b.status === 404 && hasSegments(r.template))) {
        expect(b.status, `${label} NUL in the body: ${b.message}`).toBe(400);
        expect(b.message, label).toMatch(/value:? contains a control character/);
      }
    }
    if (!hasSegments(r.template)) continue;
    for (const bad of MALFORMED_IDS) {
      const res = await answer(
        await send(
          request,
          r.method,
          fillPath(r.template, () => bad),
          origin,
          "{}",
        ),
      );
      expect([400, 404], `${label} with id ${bad}: ${res.status} ${res.message}`).toContain(res.status);
    }
  }
});

test("API routes: a control character in the path, query or body is a 400 invalid_request, never 500", async ({
  request,
  baseURL,
}) => {
  test.setTimeout(420_000);
  const user = await signUpAndSignIn(request, baseURL);
  // Pro, so that a test key may use the webhook routes (test mode has the account plan's features).
  await verifyEmail(baseURL, user.email);
  const pro = await request.put("/api/portal/plan", { data: { plan: "pro" }, headers: portalOrigin(baseURL) });
  expect(pro.status()).toBe(200);
  const keys: string[] = [];
  for (let i = 0; i < 9; i++) {
    const res = await request.post("/api/portal/keys", {
      data: { name: `input rule ${i}`, env: "test" },
      headers: portalOrigin(baseURL),
    });
    expect(res.status()).toBe(201);
    keys.push(((await res.json()) as { data: { key: string } }).data.key);
  }
  let n = 0;
  // Every refusal takes a burst unit (docs/api-contract.md §4), and test keys keep Sandbox's per-minute limits: a 429
  // is waited out (Retry-After) and the same request sent again.
  const call = async (method: string, path: string, body?: string): Promise<Answer> => {
    for (let attempt = 0; ; attempt++) {
      const res = await send(request, method, path, { authorization: `Bearer ${keys[n++ % keys.length]}` }, body);
      if (res.status() !== 429 || attempt === 3) return answer(res);
      await new Promise((r) => setTimeout(r, 1000 * Math.min(60, Number(res.headers()["retry-after"] ?? 5))));
    }
  };
  const fill = (name: string) => ({ webhookId: "wh_000000000000000000000000", date: "2026-01-02" })[name] ?? "AAPL";
  for (const r of apiRoutes()) {
    const label = `${r.method} ${r.template}`;
    const q = await call(r.method, `${fillPath(r.template, fill)}?${NUL_QUERY}`, r.method === "GET" ? undefined : "{}");
    expect(q.status, `${label} NUL in the query: ${q.message}`).toBe(400);
    expect(q.code, label).toBe("invalid_request");
    expect(q.message, label).toMatch(/query field 'probe' contains a control character/);
    if (r.method === "POST" || r.method === "PATCH") {
      const b = await call(r.method, fillPath(r.template, fill), JSON.stringify({ description: "x\u0000" }));
      // A route that reads no body (webhook test on a placeholder id) answers the id's 404 first; never a 500.
      if (!(b.status === 404 && r.template.includes("{webhookId}"))) {
        expect(b.status, `${label} NUL in the body: ${b.message}`).toBe(400);
        expect(b.message, label).toMatch(/body field 'description' contains a control character/);
      }
    }
    if (!r.template.includes("{webhookId}")) continue;
    for (const bad of ["wh_%00", "not-a-webhook", "%E0"]) {
      const res = await call(
        r.method,
        fillPath(r.template, (name) => (name === "webhookId" ? bad : fill(name))),
        "{}",
      );
      expect(res.status, `${label} with id ${bad}: ${res.message}`).toBe(400);
    }
  }
});

test("sign-up with a NUL in the name answers the same for a taken and a free address, and writes nothing", {
  tag: "@serial",
}, async ({ request, baseURL }) => {
  const taken = await signUpAndSignIn(request, baseURL);
  const sql = e2eDatabase();
  try {
    const count = async () =>
      Number((await sql`select count(*)::int as n from audit_log where action like 'user.signup%'`)[0].n);
    const before = await count();
    const answers: Answer[] = [];
    for (const email of [taken.email, `free_${randomBytes(5).toString("hex")}@example.com`]) {
      const res = await request.post("/api/portal/signup", {
        data: { email, password: "a long enough password", name: "x\u0000", acceptTerms: true },
        headers: portalOrigin(baseURL),
      });
      answers.push(await answer(res));
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toMatchObject({ status: 400, code: "invalid" });
    expect(await count(), "no sign-up was recorded, so no mail was queued").toBe(before);
  } finally {
    await sql.end();
  }
});

test("the audit export refuses a bad filter before it answers 200", async ({ request, baseURL }) => {
  test.setTimeout(120_000); // sign-up, two CLI processes and a plan change before the export
  await adminOwner(request, baseURL);
  const res = await request.get("/api/admin/audit/export?actor=admin%3A%00", { headers: portalOrigin(baseURL) });
  expect(res.status()).toBe(400);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid");
  const ok = await request.get("/api/admin/audit/export?actor=not-a-uuid", { headers: portalOrigin(baseURL) });
  expect(ok.status()).toBe(200);
  expect(await ok.text()).toMatch(/^id,at,/);
});

test("malformed percent-encoding on pages: a 400 page with the security headers, not Next's plain 500", async ({
  request,
}) => {
  for (const path of ["/docs/guides/%E0%A4%A", "/admin/accounts/%E0", "/dashboard/%ZZ"]) {
    const res = await request.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(400);
    const h = res.headers();
    expect(h["content-type"], path).toMatch(/^text\/html/);
    expect(h["content-security-policy"], path).toMatch(/default-src 'self'/);
    expect(h["x-content-type-options"], path).toBe("nosniff");
    expect(await res.text(), path).toMatch(/<h1>Bad request<\/h1>/);
  }
});

test("idle half-open connections to next start are capped per client", { tag: "@serial" }, async ({ baseURL }) => {
  const { hostname, port } = new URL(baseURL ?? "http://127.0.0.1:3100");
  const sockets = await Promise.all(
    Array.from(
      { length: 70 },
      () =>
        new Promise<import("node:net").Socket>((resolve, reject) => {
          const s = connect(Number(port), hostname, () => resolve(s));
          s.on("error", reject);
        }),
    ),
  );
  for (const s of sockets) s.write("GET / HTTP/1.1\r\n"); // a request begun, never finished
  await new Promise((r) => setTimeout(r, 3_500));
  const open = sockets.filter((s) => !s.destroyed && s.readyState === "open").length;
  for (const s of sockets) s.destroy();
  expect(open).toBeLessThanOrEqual(50);
  expect(open).toBeGreaterThan(0);
});
