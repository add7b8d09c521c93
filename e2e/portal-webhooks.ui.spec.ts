import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { axe } from "./helpers/axe";
import { checkSecondUser, checkSignedOut, type PortalAuthzPlan } from "../tests/helpers/portal-authz";
import { portalOrigin, signUpAndSignIn } from "../tests/helpers/portal";
import { verifyEmail } from "../tests/helpers/e2e-cli";
import { readFileSync } from "node:fs";
import { startReceiver } from "../tests/helpers/webhook-receiver";
import { screenshot } from "./helpers/screenshot";

// The e2e server runs in production mode (https targets only) and trusts this test-only certificate (e2e/serve.mjs).
const tls = {
  key: readFileSync("e2e/fixtures/loopback-tls.key", "utf8"),
  cert: readFileSync("e2e/fixtures/loopback-tls.crt", "utf8"),
};

/** A Pro account with one test key, made through the portal's own routes (as the plan and keys pages do). */
async function proAccountWithKey(request: APIRequestContext, baseURL: string | undefined) {
  const user = await signUpAndSignIn(request, baseURL);
  await verifyEmail(baseURL, user.email);
  const origin = portalOrigin(baseURL);
  expect((await request.put("/api/portal/plan", { data: { plan: "pro" }, headers: origin })).status()).toBe(200);
  const key = await request.post("/api/portal/keys", { data: { name: "hooks", env: "test" }, headers: origin });
  expect(key.status()).toBe(201);
  return { user, keyId: (await key.json()).data.id as string, origin };
}

/** A webhook's row actions live in its "Actions" menu (Radix dropdown): open it and pick one. */
async function rowAction(page: Page, card: Locator, item: string) {
  await card.getByRole("button", { name: /^Actions for https?:/ }).click();
  await page.getByRole("menuitem", { name: item }).click();
}

/** The same, with a webhook of that key registered through the portal's route (to a discard port: nothing answers). */
async function proAccountWithWebhook(request: APIRequestContext, baseURL: string | undefined) {
  const account = await proAccountWithKey(request, baseURL);
  const created = await request.post("/api/portal/webhooks", {
    headers: account.origin,
    data: {
      keyId: account.keyId,
      webhook: { url: "https://127.0.0.1:9/hook", events: ["no_trade.decision_changed"], symbols: ["SPY"] },
    },
  });
  expect(created.status()).toBe(201);
  return { ...account, webhookId: (await created.json()).data.webhookId as string };
}

async function registerFromPage(page: Page, url: string) {
  await page.getByLabel("Endpoint URL").fill(url);
  await page.getByLabel("Symbols").fill("SPY");
  await page.getByLabel("IV rank above (0–100)").fill("60");
  await page.getByRole("button", { name: "Register webhook" }).click();
}

test("register from the page, test event verified by standardwebhooks, pause, resume, rotate, delete", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(baseURL!).origin });
  const receiver = await startReceiver([], () => ({ status: 204 }), tls);
  try {
    await proAccountWithKey(page.request, baseURL);
    await page.goto("/dashboard/webhooks");
    await registerFromPage(page, receiver.url);
    const secret = await page.getByTestId("new-key").inputValue();
    expect(secret).toMatch(/^whsec_/);
    receiver.secrets.push(secret);
    await page.getByRole("button", { name: "I have saved the signing secret" }).click();
    await expect(page.getByTestId("new-key")).toHaveCount(0);
    const card = page.getByTestId("webhook");
    await expect(card.getByTestId("webhook-status")).toHaveText("active");

    await rowAction(page, card, "Send test event");
    await expect(card.getByText(/Test event msg_[0-9a-f]{24} queued/)).toBeVisible();
    await expect.poll(() => receiver.received.length, { timeout: 60_000 }).toBeGreaterThan(0);
    const got = receiver.received[0];
    expect(got.verifiedBy).toEqual([0]);
    expect(JSON.parse(got.body).type).toBe("webhook.test");
    const delivery = card.getByTestId("delivery").filter({ hasText: got.id });
    await expect(delivery.getByText("succeeded")).toBeVisible({ timeout: 30_000 });
    await expect(delivery.getByTestId("attempt")).toHaveCount(1);
    await expect(delivery.getByTestId("attempt")).toContainText("204");
    // The delivery row's own menu replays the event: the same webhook-id arrives again.
    await delivery.getByRole("button", { name: `Actions for event ${got.id}` }).click();
    await page.getByRole("menuitem", { name: "Replay this event" }).click();
    await expect(card.getByText("1 event(s) queued again.")).toBeVisible();
    await expect.poll(() => receiver.received.length, { timeout: 60_000 }).toBeGreaterThan(1);
    expect(receiver.received[1].id).toBe(got.id);

    await rowAction(page, card, "Pause");
    await expect(card.getByTestId("webhook-status")).toHaveText("paused");
    await rowAction(page, card, "Resume");
    await expect(card.getByTestId("webhook-status")).toHaveText("active");

    await rowAction(page, card, "Rotate secret");
    await expect(page.getByText(/both the new and the previous secret/)).toBeVisible();
    const rotated = await page.getByTestId("new-key").inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    receiver.secrets.push(rotated);
    await page.getByRole("button", { name: "I have saved the signing secret" }).click();
    // After rotation a delivery carries both signatures: each secret verifies it alone.
    await rowAction(page, card, "Send test event");
    await expect.poll(() => receiver.received.length, { timeout: 60_000 }).toBeGreaterThan(2);
    expect(receiver.received.at(-1)!.verifiedBy).toEqual([0, 1]);

    await rowAction(page, card, "Delete");
    await page.getByRole("dialog").getByRole("button", { name: "Delete webhook" }).click();
    await expect(page.getByText("No webhooks yet.")).toBeVisible();
  } finally {
    await receiver.close();
  }
});

test("test sends are limited like testAlert; a revoked key's webhook shows disabled with the reason", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { keyId, origin, webhookId: id } = await proAccountWithWebhook(page.request, baseURL);
  // The key is a test key: Sandbox's family B burst of 5 a minute, the same as POST /api/v1/alerts/{id}/test.
  const seconds = new Date().getUTCSeconds();
  if (seconds > 45) await page.waitForTimeout((61 - seconds) * 1000); // all seven in one minute window
  const answers = [];
  for (let i = 0; i < 7; i++)
    answers.push(await page.request.post(`/api/portal/webhooks/${id}/test`, { headers: origin }));
  expect(answers.map((a) => a.status())).toEqual([200, 200, 200, 200, 200, 429, 429]);
  expect((await answers[5].json()).error.code).toBe("rate_limited");
  expect(Number(answers[5].headers()["retry-after"])).toBeGreaterThan(0);

  expect((await page.request.post(`/api/portal/keys/${keyId}/revoke`, { headers: origin })).status()).toBe(200);
  await page.goto("/dashboard/webhooks");
  const card = page.getByTestId("webhook");
  await expect(card.getByTestId("webhook-status")).toHaveText("disabled");
  await expect(card.getByTestId("webhook-disabled-reason")).toContainText("that registered it was revoked");
  await card.getByRole("button", { name: /^Actions for https?:/ }).click();
  await expect(page.getByRole("menuitem", { name: "Send test event" })).toHaveAttribute("aria-disabled", "true");
  await expect(page.getByRole("menuitem", { name: /Re-enable|Resume/ })).toHaveCount(0);
  await page.keyboard.press("Escape");
  const refused = await page.request.patch(`/api/portal/webhooks/${id}`, {
    headers: origin,
    data: { status: "active" },
  });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).error.message).toContain("has ended");
});

test("bad input on every form: a clear message, nothing written", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const { keyId, origin } = await proAccountWithKey(page.request, baseURL);
  await page.goto("/dashboard/webhooks");
  await registerFromPage(page, "not a url");
  await expect(page.locator("#wh-url-error")).toHaveText("Enter the endpoint's full URL, starting with https://.");
  await page.getByLabel("Endpoint URL").fill("https://127.0.0.1:9/hook");
  // Each refusal in plain words next to its field, never the API's name for it (issue 28: no `ivRankAbove`).
  const rank = "Enter a number from 0 to 100: the iv_rank.crossed_above event alerts when it is crossed.";
  await page.getByLabel("IV rank above (0–100)").fill("");
  await page.getByRole("button", { name: "Register webhook" }).click();
  await expect(page.locator("#wh-ivRankAbove-error")).toHaveText(rank);
  await page.getByLabel("IV rank above (0–100)").fill("150");
  await page.getByRole("button", { name: "Register webhook" }).click();
  await expect(page.locator("#wh-ivRankAbove-error")).toHaveText(rank);
  await expect(page.getByRole("alert").filter({ hasText: /ivRank|keyId/ })).toHaveCount(0);
  await expect(page.getByText("No webhooks yet.")).toBeVisible();
  expect((await (await page.request.get("/api/portal/webhooks")).json()).data).toEqual([]);

  // Replay-range form: an empty and a reversed range are refused with a message.
  const created = await page.request.post("/api/portal/webhooks", {
    headers: origin,
    data: {
      keyId,
      webhook: { url: "https://127.0.0.1:9/hook", events: ["no_trade.decision_changed"], symbols: ["SPY"] },
    },
  });
  expect(created.status()).toBe(201);
  await page.reload();
  const card = page.getByTestId("webhook");
  await card.getByRole("button", { name: "Replay time range" }).click();
  await expect(card.getByRole("alert")).toContainText("from");
  await card.getByLabel("From (UTC)").fill("2026-01-02T00:00");
  await card.getByLabel("To (UTC)").fill("2026-01-01T00:00");
  await card.getByRole("button", { name: "Replay time range" }).click();
  await expect(card.getByRole("alert")).toHaveText("The From time must be before the To time.");
  const id = (await created.json()).data.webhookId as string;
  for (const [path, data, field] of [
    [`/api/portal/webhooks/${id}`, { status: "deleted" }, "status"],
    [`/api/portal/webhooks/${id}/replay`, { eventId: "nope" }, ""],
    [
      "/api/portal/webhooks",
      {
        keyId: "key_unknown",
        webhook: { url: "https://127.0.0.1:9/x", events: ["no_trade.decision_changed"], symbols: ["SPY"] },
      },
      "keyId",
    ],
    [
      "/api/portal/webhooks",
      { keyId, webhook: { url: "https://127.0.0.1:9/x", events: [], symbols: ["SPY"] } },
      "webhook.events",
    ],
  ] as const) {
    const res = await page.request.fetch(path, { method: path.endsWith(id) ? "PATCH" : "POST", headers: origin, data });
    expect(res.status(), path).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe("invalid");
    if (field) expect(body.error.field, path).toBe(field);
  }
  const list = (await (await page.request.get("/api/portal/webhooks")).json()).data as { status: string }[];
  expect(list.map((w) => w.status)).toEqual(["active"]);
});

test("test mode mirrors live: a Pro account's test key registers a webhook through the API and the portal alike (201)", async ({
  page,
  baseURL,
}) => {
  const request = page.request;
  const user = await signUpAndSignIn(request, baseURL);
  await verifyEmail(baseURL, user.email);
  const origin = portalOrigin(baseURL);
  expect((await request.put("/api/portal/plan", { data: { plan: "pro" }, headers: origin })).status()).toBe(200);
  const made = await request.post("/api/portal/keys", { data: { name: "hooks", env: "test" }, headers: origin });
  expect(made.status()).toBe(201);
  const key = (await made.json()).data as { id: string; key: string; prefix: string };
  expect(key.key).toMatch(/^svc_test_/);
  const hook = { url: "https://127.0.0.1:9/hook", events: ["no_trade.decision_changed"], symbols: ["SPY"] };
  const viaPortal = await request.post("/api/portal/webhooks", {
    headers: origin,
    data: { keyId: key.id, webhook: hook },
  });
  expect(viaPortal.status()).toBe(201);
  const viaApi = await request.post("/api/v1/alerts", { headers: { authorization: `Bearer ${key.key}` }, data: hook });
  expect(viaApi.status(), await viaApi.text()).toBe(201);
  const body = await viaApi.json();
  expect(body.isMockData).toBe(true);
  const listed = await request.get("/api/v1/alerts", { headers: { authorization: `Bearer ${key.key}` } });
  expect(listed.status()).toBe(200);
  expect(((await listed.json()).data.webhooks as unknown[]).length).toBe(2);
  // The page shows `webhooks listen` with this account's own values: its test key, its webhooks' filters, this origin.
  await page.goto("/dashboard/webhooks");
  const command = page.getByTestId("webhooks-listen-command");
  await expect(command).toContainText("npm run -s cli -- webhooks listen");
  await expect(command).toContainText(`--key ${key.prefix}…`);
  await expect(command).toContainText("--events no_trade.decision_changed");
  await expect(command).toContainText("--symbols SPY");
});

test("a Sandbox account sees why and a link to the plan page, and registering is refused", async ({
  page,
  baseURL,
}) => {
  await signUpAndSignIn(page.request, baseURL);
  await page.goto("/dashboard/webhooks");
  await expect(page.getByTestId("webhooks-plan-note")).toContainText("Pro and Enterprise");
  await expect(page.getByTestId("webhooks-plan-note").getByRole("link", { name: "Change your plan" })).toHaveAttribute(
    "href",
    "/dashboard/plan",
  );
  await expect(page.getByRole("button", { name: "Register webhook" })).toHaveCount(0);
  const res = await page.request.post("/api/portal/webhooks", { headers: portalOrigin(baseURL), data: {} });
  expect(res.status()).toBe(403);
  expect((await res.json()).error.code).toBe("subscription_required");
});

test("authorization: signed out 401 / redirect, a second user 404 or 403 on every route", async ({
  request,
  playwright,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const some = "wh_000000000000000000000000";
  const routes = (id: string) => [
    { method: "GET" as const, path: "/api/portal/webhooks" },
    { method: "POST" as const, path: "/api/portal/webhooks", body: {} },
    { method: "GET" as const, path: `/api/portal/webhooks/${id}` },
    { method: "PATCH" as const, path: `/api/portal/webhooks/${id}`, body: { status: "paused" } },
    { method: "DELETE" as const, path: `/api/portal/webhooks/${id}` },
    { method: "GET" as const, path: `/api/portal/webhooks/${id}/deliveries` },
    { method: "POST" as const, path: `/api/portal/webhooks/${id}/test` },
    {
      method: "POST" as const,
      path: `/api/portal/webhooks/${id}/replay`,
      body: { from: "2026-01-01T00:00:00Z", to: "2026-01-02T00:00:00Z" },
    },
    { method: "POST" as const, path: `/api/portal/webhooks/${id}/rotate-secret` },
  ];
  let ownerCtx: APIRequestContext | undefined;
  let webhookId = "";
  const plan: PortalAuthzPlan = {
    routes: routes(some),
    pages: ["/dashboard/webhooks"],
    foreign: async (owner, user) => {
      ownerCtx = owner;
      await verifyEmail(baseURL, user.email);
      const origin = portalOrigin(baseURL);
      expect((await owner.put("/api/portal/plan", { data: { plan: "pro" }, headers: origin })).status()).toBe(200);
      const key = await owner.post("/api/portal/keys", { data: { name: "k", env: "test" }, headers: origin });
      const created = await owner.post("/api/portal/webhooks", {
        headers: origin,
        data: {
          keyId: (await key.json()).data.id,
          webhook: { url: "https://127.0.0.1:9/x", events: ["no_trade.decision_changed"], symbols: ["SPY"] },
        },
      });
      expect(created.status()).toBe(201);
      const body = (await created.json()).data;
      webhookId = body.webhookId;
      // The list route answers the intruder's own (empty) list, so it is checked below, not here.
      return {
        routes: routes(webhookId).filter((r) => r.path !== "/api/portal/webhooks"),
        secrets: [body.signingSecret, webhookId],
      };
    },
  };
  await checkSignedOut(request, plan, baseURL);
  await checkSecondUser(playwright, baseURL, plan);
  expect(ownerCtx).toBeDefined();
  const intruder = await playwright.request.newContext({ baseURL });
  await signUpAndSignIn(intruder, baseURL);
  expect((await (await intruder.get("/api/portal/webhooks")).json()).data).toEqual([]);
  await intruder.dispose();
});

test("axe and a 375 px screenshot of the page with a webhook and its deliveries", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const { origin, webhookId: id } = await proAccountWithWebhook(page.request, baseURL);
  expect((await page.request.post(`/api/portal/webhooks/${id}/test`, { headers: origin })).status()).toBe(200);
  await page.setViewportSize({ width: 375, height: 900 });
  await page.goto("/dashboard/webhooks");
  await expect(page.getByTestId("delivery")).toHaveCount(1);
  const results = await axe(page).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  await screenshot(page, { path: test.info().outputPath("webhooks-375.png"), fullPage: true });
  await screenshot(page, { path: "test-results/webhooks-375.png", fullPage: true });
  // The row menu open at desktop width: axe-clean too.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page
    .getByTestId("webhook")
    .getByRole("button", { name: /^Actions for https?:/ })
    .click();
  await expect(page.getByRole("menuitem", { name: "Rotate secret" })).toBeVisible();
  const open = await axe(page).analyze();
  expect(open.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  await screenshot(page, { path: "test-results/webhooks-menu-1280.png" });
});
