import { expect, request as newRequest, test } from "@playwright/test";
import { portalOrigin, signUpAndSignIn } from "../tests/helpers/portal";
import { e2eCli, verifyEmail } from "../tests/helpers/e2e-cli";

/** Another account's keys and access requests answer 404; a signed-out caller gets 401 (routes) or a sign-in redirect (pages). */
test("keys, access-request and plan routes: second user 404, signed out 401 / redirect", async ({ baseURL }) => {
  test.setTimeout(120_000);
  const first = await newRequest.newContext({ baseURL });
  const second = await newRequest.newContext({ baseURL });
  const anonymous = await newRequest.newContext({ baseURL });
  const origin = portalOrigin(baseURL);
  const owner = await signUpAndSignIn(first, baseURL);
  await signUpAndSignIn(second, baseURL);

  const created = await first.post("/api/portal/keys", { data: { name: "mine", env: "test" }, headers: origin });
  expect(created.status()).toBe(201);
  const keyId = (await created.json()).data.id as string;

  await verifyEmail(baseURL, owner.email);
  expect((await first.put("/api/portal/plan", { data: { plan: "starter" }, headers: origin })).status()).toBe(200);
  const req = await first.post("/api/portal/access-requests", {
    data: { company: "First Co", useCase: "A research notebook for our own team.", expectedVolume: "under_1k" },
    headers: origin,
  });
  expect(req.status()).toBe(201);
  const requestId = (await req.json()).data.id as string;
  expect((await e2eCli(baseURL, "access", "approve", "--id", requestId)).code).toBe(0);

  const stateChanging = [
    { method: "post", path: `/api/portal/keys/${keyId}/revoke`, data: undefined },
    { method: "post", path: `/api/portal/keys/${keyId}/roll`, data: { overlap: "now" } },
    { method: "post", path: `/api/portal/access-requests/${requestId}/key`, data: undefined },
  ] as const;
  for (const r of stateChanging) {
    const res = await second[r.method](r.path, { data: r.data, headers: origin });
    expect(res.status(), `${r.path} as another user`).toBe(404);
    expect((await res.json()).error.code).toBe("not_found");
  }
  const theirs = await (await second.get("/api/portal/keys")).json();
  expect(theirs.data).toEqual([]);
  expect((await (await second.get("/api/portal/access-requests")).json()).data).toEqual([]);

  for (const [method, path] of [
    ["get", "/api/portal/keys"],
    ["post", "/api/portal/keys"],
    ["post", `/api/portal/keys/${keyId}/revoke`],
    ["post", `/api/portal/keys/${keyId}/roll`],
    ["get", "/api/portal/access-requests"],
    ["post", "/api/portal/access-requests"],
    ["post", `/api/portal/access-requests/${requestId}/key`],
    ["get", "/api/portal/plan"],
    ["put", "/api/portal/plan"],
  ] as const) {
    const res = await anonymous[method](path, { data: method === "get" ? undefined : {}, headers: origin });
    expect(res.status(), `${method} ${path} signed out`).toBe(401);
  }
  for (const page of ["/dashboard/keys", "/dashboard/access", "/dashboard/plan"]) {
    const res = await anonymous.get(page, { maxRedirects: 0 });
    expect([302, 303, 307], page).toContain(res.status());
    expect(res.headers().location).toContain(`/signin?callbackUrl=${encodeURIComponent(page)}`);
  }
  // Without the portal's Origin a state change is refused before anything else (CSRF).
  expect((await first.post(`/api/portal/keys/${keyId}/revoke`)).status()).toBe(403);
  // The owner's key and request are untouched by all of the above.
  const mine = (await (await first.get("/api/portal/keys")).json()).data as { id: string; state: string }[];
  expect(mine.find((k) => k.id === keyId)?.state).toBe("active");
  const shown = await first.post(`/api/portal/access-requests/${requestId}/key`, { headers: origin });
  expect(shown.status()).toBe(200);
  expect((await shown.json()).data.key).toMatch(/^svc_sk_live_/);
});

test("bad input on the portal routes: 400 naming the field, nothing written", async ({ baseURL }) => {
  const ctx = await newRequest.newContext({ baseURL });
  const origin = portalOrigin(baseURL);
  await signUpAndSignIn(ctx, baseURL);
  const cases = [
    { path: "/api/portal/keys", data: { name: "x", env: "prod" }, field: "env" },
    { path: "/api/portal/keys", data: { name: "", env: "test" }, field: "name" },
    { path: "/api/portal/keys", data: { name: "x", env: "test", extra: 1 }, field: undefined },
    { path: "/api/portal/keys", data: { env: "test" }, field: "name" },
  ];
  for (const c of cases) {
    const res = await ctx.post(c.path, { data: c.data, headers: origin });
    expect(res.status(), JSON.stringify(c.data)).toBe(400);
    const body = await res.json();
    if (c.field) expect(body.error.field).toBe(c.field);
    expect(body.error.message.length).toBeGreaterThan(5);
  }
  const plan = await ctx.put("/api/portal/plan", { data: { plan: "gold" }, headers: origin });
  expect([plan.status(), (await plan.json()).error.field]).toEqual([400, "plan"]);
  const roll = await ctx.post("/api/portal/keys/key_nope/roll", { data: { overlap: "forever" }, headers: origin });
  expect([roll.status(), (await roll.json()).error.field]).toEqual([400, "overlap"]);
  expect((await (await ctx.get("/api/portal/keys")).json()).data).toEqual([]);
  expect((await (await ctx.get("/api/portal/plan")).json()).data.current).toBe("sandbox");
});
