/**
 * The security review's attacks over real HTTP against the running product: a 200 MB body to the Auth.js callback and
 * to a portal route, a saved session cookie after sign-out, a forged X-Forwarded-For against the sign-in throttle,
 * malformed paths and deeply nested JSON bodies on /api/v1 and the portal.
 */
import { expect, test } from "@playwright/test";
import { execFileSync } from "node:child_process";
import http from "node:http";
import { readFileSync } from "node:fs";
import { portalOrigin, signUpAndSignIn } from "../tests/helpers/portal";
import { verifyEmail } from "../tests/helpers/e2e-cli";

/** The resident memory of the process listening on the server's port, in bytes (null when it cannot be read). */
function serverRss(port: string): number | null {
  try {
    const pids = execFileSync("lsof", ["-ti", `tcp:${port}`, "-sTCP:LISTEN"], { encoding: "utf8" })
      .trim()
      .split("\n");
    const status = readFileSync(`/proc/${pids[0]}/status`, "utf8");
    const kb = /VmRSS:\s+(\d+) kB/.exec(status);
    return kb ? Number(kb[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Streams `total` bytes as a form body (declared or not) and answers the status the server sent and the bytes it took. */
function streamBody(
  base: string,
  path: string,
  total: number,
  declare: boolean,
  contentType = "application/x-www-form-urlencoded",
  extra: Record<string, string> = {},
) {
  return new Promise<{ status: number; written: number }>((resolve, reject) => {
    const url = new URL(path, base);
    const req = http.request(url, {
      method: "POST",
      headers: {
        "content-type": contentType,
        ...extra,
        ...(declare ? { "content-length": String(total) } : { "transfer-encoding": "chunked" }),
      },
    });
    const chunk = Buffer.alloc(256 * 1024, "a");
    let written = 0;
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      res.resume();
      resolve({ status: res.statusCode ?? 0, written });
      req.destroy();
    });
    req.on("error", (err) => (answered ? undefined : reject(err)));
    const pump = () => {
      while (!answered && written < total) {
        written += chunk.length;
        if (!req.write(chunk)) return req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

test("a 200 MB body to the Auth.js callback is refused with 413 before memory grows", async ({ baseURL }) => {
  const port = new URL(baseURL!).port;
  const before = serverRss(port);
  for (const declare of [true, false]) {
    const got = await streamBody(baseURL!, "/api/auth/callback/credentials", 200 * 1024 * 1024, declare);
    expect(got.status).toBe(413);
    expect(got.written).toBeLessThan(200 * 1024 * 1024);
  }
  const afterRss = serverRss(port);
  if (before !== null && afterRss !== null) expect(afterRss - before).toBeLessThan(10 * 1024 * 1024);
});

test("a 200 MB JSON body to a portal route is refused with 413 before memory grows", async ({ baseURL }) => {
  const port = new URL(baseURL!).port;
  const before = serverRss(port);
  for (const path of ["/api/portal/signup", "/api/portal/password-reset"]) {
    for (const declare of [true, false]) {
      const got = await streamBody(
        baseURL!,
        path,
        200 * 1024 * 1024,
        declare,
        "application/json",
        portalOrigin(baseURL),
      );
      expect(got.status, `${path} declared=${declare}`).toBe(413);
      expect(got.written).toBeLessThan(200 * 1024 * 1024);
    }
  }
  const afterRss = serverRss(port);
  if (before !== null && afterRss !== null) expect(afterRss - before).toBeLessThan(10 * 1024 * 1024);
});

test("a portal body just over 64 kB is a 413 in the portal's shape; malformed JSON and paths are 400s with the security headers", async ({
  request,
  baseURL,
}) => {
  const origin = portalOrigin(baseURL);
  const big = await request.post("/api/portal/signup", {
    data: Buffer.from(JSON.stringify({ email: "a@example.com", pad: "x".repeat(64 * 1024) })),
    headers: { ...origin, "content-type": "application/json" },
  });
  expect(big.status()).toBe(413);
  expect(await big.json()).toEqual({
    error: { code: "payload_too_large", message: "The request body is larger than 64 kB." },
  });
  const deep = await request.post("/api/portal/password-reset", {
    data: Buffer.from('{"a":'.repeat(10_000) + "1" + "}".repeat(10_000)),
    headers: { ...origin, "content-type": "application/json" },
  });
  expect(deep.status()).toBe(400);
  expect((await deep.json()).error).toEqual({
    code: "invalid",
    message: "The request body nests deeper than 64 levels.",
  });
  for (const res of [
    deep,
    await request.get("/api/portal/keys/%ff"),
    await request.post("/api/portal/keys/%E0%A4%A/revoke", { headers: origin }),
  ]) {
    expect(res.status()).toBe(400);
    expect(res.headers()["content-type"]).toMatch(/json/);
    expect(res.headers()["x-content-type-options"]).toBe("nosniff");
    expect(res.headers()["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
  }
  expect((await (await request.get("/api/portal/keys/%ff")).json()).error.code).toBe("invalid");
});

test("a JSON body nested 1,500 deep (under Sandbox's 10 kB) to /api/v1 is a 400 in the contract's shape, with the security headers", async ({
  request,
  baseURL,
}) => {
  const user = await signUpAndSignIn(request, baseURL);
  await verifyEmail(baseURL, user.email);
  const created = await request.post("/api/portal/keys", {
    data: { name: "deep", env: "test" },
    headers: portalOrigin(baseURL),
  });
  expect(created.status()).toBe(201);
  const { key } = ((await created.json()) as { data: { key: string } }).data;
  const res = await request.post("/api/v1/outputs", {
    data: Buffer.from('{"a":'.repeat(1_500) + "1" + "}".repeat(1_500)),
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
  });
  expect(res.status()).toBe(400);
  const body = (await res.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe("invalid_request");
  expect(body.error.message).toBe("The request body nests deeper than 64 levels.");
  expect(res.headers()["x-content-type-options"]).toBe("nosniff");
  expect(res.headers()["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
});

test("a saved session cookie gets 401 after sign-out, and /api/auth/session hands back nothing", async ({
  playwright,
  baseURL,
}) => {
  const ctx = await playwright.request.newContext({ baseURL });
  await signUpAndSignIn(ctx, baseURL);
  const saved = await ctx.storageState();
  expect((await ctx.get("/api/portal/usage")).status()).toBe(200);
  const csrf = (await (await ctx.get("/api/auth/csrf")).json()) as { csrfToken: string };
  await ctx.post("/api/auth/signout", { form: { csrfToken: csrf.csrfToken }, maxRedirects: 0 });
  const thief = await playwright.request.newContext({ baseURL, storageState: saved });
  expect((await thief.get("/api/portal/usage")).status()).toBe(401);
  const session = await thief.get("/api/auth/session");
  expect(await session.json()).toBeNull();
  expect(session.headers()["set-cookie"] ?? "").not.toMatch(/session-token=[^;]{20,}/);
  await ctx.dispose();
  await thief.dispose();
});

test("a forged X-Forwarded-For neither dodges the sign-in delay nor locks out the owner", async ({
  playwright,
  baseURL,
}) => {
  const owner = await playwright.request.newContext({ baseURL });
  const user = await signUpAndSignIn(owner, baseURL);
  const attacker = await playwright.request.newContext({ baseURL });
  const codes: string[] = [];
  for (let i = 0; i < 7; i++) {
    const csrf = (await (await attacker.get("/api/auth/csrf")).json()) as { csrfToken: string };
    const res = await attacker.post("/api/auth/callback/credentials", {
      form: { email: user.email, password: `wrong password ${i}`, csrfToken: csrf.csrfToken },
      headers: { "x-forwarded-for": `198.51.100.${i + 1}`, "x-real-ip": `198.51.100.${i + 1}` },
      maxRedirects: 0,
    });
    codes.push(new URL(res.headers().location ?? "http://x/", baseURL).searchParams.get("code") ?? "");
  }
  // Rotating the header did not reset anything: past the free attempts the e-mail waits.
  expect(codes.slice(-2).every((c) => c.startsWith("rate_limited:"))).toBe(true);
  // Forged victim addresses were not recorded as the attacker's address.
  await owner.dispose();
  await attacker.dispose();
});

test("a malformed percent-encoding in an /api/v1 path is a 400 in the contract's shape, with security headers", async ({
  request,
}) => {
  const res = await request.get("/api/v1/ticker/%ff/summary");
  expect(res.status()).toBeLessThan(500);
  expect(res.headers()["content-type"]).toMatch(/json/);
  expect(res.headers()["x-content-type-options"]).toBe("nosniff");
});
