/**
 * The admin console in a browser: live options-flow enabled with a reason (a live key's call then served with data from
 * the live store an operator imported), set back (refused within 5 s), both changes on /admin/audit by the admin's
 * e-mail and in its CSV export; an access request approved (the requester sees the svc_sk_live_ key once, the admin
 * never); a key deactivated (403 inactive_key within 5 s) and reactivated; bad input on every admin form.
 * Screenshots, axe and widths: e2e/admin-shell.ui.spec.ts.
 */
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { portalOrigin, signUpAndSignIn, type PortalTestUser } from "../tests/helpers/portal";
import { e2eMailbox } from "../tests/helpers/e2e-mailbox";
import { decodeBody } from "../tests/helpers/mailbox";
import { e2eCli, verifyEmail } from "../tests/helpers/e2e-cli";
import { LIVE_FLOW_KINDS, writeLiveFlowFiles } from "../tests/helpers/live-flow-files";

const mailbox = e2eMailbox(); // every message the e2e server sent (e2e/serve.mjs)

async function cli(baseURL: string | undefined, ...args: string[]) {
  const r = await e2eCli(baseURL, ...args);
  expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(0);
  return r.stdout.trim() ? JSON.parse(r.stdout) : null;
}

/** A signed-in admin in `page` (signed up, then given the flag by an operator). */
async function signInAdmin(page: Page, baseURL: string | undefined): Promise<PortalTestUser> {
  const admin = await signUpAndSignIn(page.request, baseURL);
  await cli(baseURL, "admin", "grant", "--email", admin.email);
  return admin;
}

/** 200 with the number of flow events served, or the error code. */
const flowAnswer = async (request: APIRequestContext, key: string) => {
  const res = await request.get("/api/v1/options-flow", { headers: { "x-service-key": key } });
  const body = (await res.json()) as { data?: { count: number }; error?: { code: string } };
  return res.ok() ? `200 with ${body.data?.count} events` : (body.error?.code ?? String(res.status()));
};

async function changeState(page: Page, state: string, reason: string) {
  await page.goto("/admin/licensing");
  await page.getByLabel("Endpoint", { exact: true }).selectOption("GET /api/v1/options-flow");
  await page.getByLabel("Environment", { exact: true }).selectOption("live");
  await page.getByLabel("State", { exact: true }).selectOption(state);
  await page.getByRole("textbox", { name: "Reason", exact: true }).fill(reason);
  if (state === "pending_licensing")
    await expect(page.getByTestId("licensing-preview")).toContainText('"endpoint_pending_licensing"');
  else await expect(page.getByText("live keys' calls to GET /api/v1/options-flow are served")).toBeVisible();
  await page.getByRole("button", { name: "Change state" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
}

test("licensing: enable live options-flow with a reason, set it back; enforced within 5 s; audited and exported", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const admin = await signInAdmin(page, baseURL);
  // A Pro account's live key, and the live market an operator imports from the vendor's files (docs/admin.md).
  const email = `pro_${Date.now()}@example.com`;
  await cli(baseURL, "account", "create", "--email", email, "--plan", "pro");
  const key = (await cli(baseURL, "key", "create", "--email", email, "--env", "live")).key as string;
  const files = writeLiveFlowFiles();
  for (const kind of LIVE_FLOW_KINDS) await cli(baseURL, "import", kind, "--file", files[kind], "--env", "live");
  expect(await flowAnswer(page.request, key)).toBe("endpoint_pending_licensing"); // the default for live

  await changeState(page, "enabled", "Licence for options flow signed");
  // Served: the sweep and the block of the imported session (the engine picks the import up within seconds).
  await expect.poll(() => flowAnswer(page.request, key), { timeout: 15_000 }).toBe("200 with 2 events");
  await changeState(page, "pending_licensing", "Licence suspended pending renewal");
  await expect.poll(() => flowAnswer(page.request, key), { timeout: 5_000 }).toBe("endpoint_pending_licensing");

  // On /admin/audit by the admin's e-mail (the actor filter takes an e-mail too), with both reasons.
  await page.goto(`/admin/audit?action=endpoint.set_licensing&actor=${encodeURIComponent(admin.email.toUpperCase())}`);
  const table = page.getByRole("table", { name: "Audit entries" });
  await expect(table.getByRole("row")).toHaveCount(3); // header + the two changes
  await expect(table).toContainText("Licence for options flow signed");
  await expect(table).toContainText("Licence suspended pending renewal");
  await expect(table).toContainText(admin.email);
  await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute("href", /action=endpoint.set_licensing/);
  // The licensing table says who changed it, by e-mail.
  await page.goto("/admin/licensing");
  const flowRow = page
    .getByRole("table", { name: "Endpoints by environment" })
    .getByRole("row")
    .filter({ hasText: "/api/v1/options-flow" })
    .filter({ hasText: "live" });
  await expect(flowRow).toContainText(admin.email);
  await expect(flowRow).toContainText("Licence suspended pending renewal");

  const exported = await page.request.get(
    `/api/admin/audit/export?action=endpoint.set_licensing&actor=${encodeURIComponent(admin.email)}`,
  );
  expect(exported.status()).toBe(200);
  expect(exported.headers()["content-type"]).toContain("text/csv");
  const rows = parse(await exported.text(), { columns: true }) as Record<string, string>[];
  expect(rows.map((r) => [r.actorEmail, r.actorType, r.reason])).toEqual([
    [admin.email, "admin", "Licence suspended pending renewal"],
    [admin.email, "admin", "Licence for options flow signed"],
  ]);
  expect(rows.map((r) => JSON.parse(r.after).state)).toEqual(["pending_licensing", "enabled"]);
});

test("access request: reject needs a reason; approved, the requester sees the svc_sk_live_ key once, the admin never", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const requesterContext = await browser.newContext({ baseURL });
  const requester = await requesterContext.newPage();
  const user = await signUpAndSignIn(requester.request, baseURL);
  await verifyEmail(baseURL, user.email);
  const headers = portalOrigin(baseURL);
  expect((await requester.request.put("/api/portal/plan", { data: { plan: "starter" }, headers })).status()).toBe(200);
  const company = `Admin E2E ${Date.now()}`;
  const asked = await requester.request.post("/api/portal/access-requests", {
    data: { company, useCase: "Dashboards of options positioning for our analysts.", expectedVolume: "1k_10k" },
    headers,
  });
  expect(asked.status()).toBe(201);

  await signInAdmin(page, baseURL);
  await page.goto("/admin/access-requests");
  const row = page.getByRole("row").filter({ hasText: company });
  await expect(row).toContainText("0 business days");
  // Reject names the request and needs a reason: the dialog says so next to the field; the request stays queued.
  await row.getByRole("button", { name: `Reject ${company}` }).click();
  const reject = page.getByRole("dialog", { name: `Reject ${company}'s request?` });
  await expect(reject).toContainText(`${user.email} sees the reason`);
  await reject.getByRole("button", { name: "Reject" }).click();
  await expect(reject.getByText("A rejection reason has 3–500 characters.")).toBeVisible();
  await expect(reject.getByLabel(/^Reason/)).toHaveAttribute("aria-invalid", "true");
  await reject.getByRole("button", { name: "Cancel" }).click();
  // Approve names the request, the key it issues and the mail it sends.
  await row.getByRole("button", { name: `Approve ${company}` }).click();
  const approve = page.getByRole("dialog", { name: `Approve ${company}'s request?` });
  await expect(approve).toContainText(`mails ${user.email} that it waits`);
  await approve.getByRole("button", { name: "Approve" }).click();
  // The approval mail, not the sign-up's verification mail that may arrive late from the mail queue.
  const approved = `Your API access request for ${company} was approved`;
  const approval = () =>
    mailbox.messages.find((m) => m.to.includes(user.email.toLowerCase()) && decodeBody(m.raw).includes(approved));
  await expect.poll(() => Boolean(approval()), { timeout: 15_000 }).toBe(true);
  expect(decodeBody(approval()!.raw)).not.toMatch(/svc_sk_live_[0-9A-Za-z]{30}/);
  await expect(page.getByRole("table", { name: "Decided access requests" })).toContainText(company);
  expect(await page.content()).not.toMatch(/svc_sk_live_[0-9A-Za-z]{30}/);

  await requester.goto("/dashboard/access");
  await requester.getByRole("button", { name: "Show my key (once)" }).click();
  await expect(requester.getByTestId("new-key")).toHaveValue(/^svc_sk_live_[0-9A-Za-z]{30}$/);
  await requester.getByRole("button", { name: "I have saved the key" }).click();
  await requester.reload();
  await expect(requester.getByRole("button", { name: "Show my key (once)" })).toHaveCount(0);
  await requesterContext.close();
});

test("a key deactivated by an admin gets 403 inactive_key within 5 s, reactivated it works; the plan change audited", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const email = `keys_${Date.now()}@example.com`;
  const account = await cli(baseURL, "account", "create", "--email", email);
  const created = await cli(baseURL, "key", "create", "--email", email, "--env", "test", "--name", "Desk key");
  await signInAdmin(page, baseURL);

  await page.goto("/admin/accounts");
  await page.getByLabel("E-mail, account id or key prefix").fill(created.prefix);
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("link", { name: email }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/accounts/${account.accountId}$`));
  const keyRow = page.getByRole("row").filter({ hasText: created.prefix });
  const call = async () => {
    // A family A route (10 calls a minute on Sandbox, fixed UTC minutes): every call counts, refusals too (issue 30).
    const res = await page.request.get("/api/v1/ticker/AAPL/summary", { headers: { "x-service-key": created.key } });
    return res.ok() ? res.status() : ((await res.json()) as { error: { code: string } }).error.code;
  };
  expect(await call()).toBe(200);
  await keyRow.getByRole("button", { name: "Deactivate" }).click();
  const off = page.getByRole("dialog", { name: new RegExp(`^Deactivate key ${created.prefix}`) });
  await expect(off).toContainText("403 inactive_key within 5 seconds");
  await off.getByRole("button", { name: "Deactivate" }).click();
  await expect(off.getByLabel(/^Reason/)).toHaveAttribute("aria-invalid", "true"); // a reason is required
  await off.getByLabel(/^Reason/).fill("Key posted in a public repository");
  await off.getByRole("button", { name: "Deactivate" }).click();
  await expect(keyRow.getByRole("button", { name: "Reactivate" })).toBeVisible();
  // Each poll asks every 2 s within its 5 s (at most 3 calls), so with the first call at most 7 fall in any minute
  // window: under Sandbox's 10, never a 429, without waiting for a fresh window.
  await expect.poll(call, { timeout: 5_000, intervals: [2000] }).toBe("inactive_key");
  await keyRow.getByRole("button", { name: "Reactivate" }).click();
  await page
    .getByRole("dialog", { name: new RegExp(`^Reactivate key ${created.prefix}`) })
    .getByRole("button", { name: "Reactivate" })
    .click();
  await expect(keyRow.getByRole("button", { name: "Deactivate" })).toBeVisible();
  await expect.poll(call, { timeout: 5_000, intervals: [2000] }).toBe(200);

  // Plan change from the account page, audited.
  await page.getByLabel("Plan", { exact: true }).selectOption("starter");
  await page.getByRole("button", { name: "Change plan" }).click();
  const planDialog = page.getByRole("dialog", { name: `Change the plan of ${email}?` });
  await expect(planDialog).toContainText("From sandbox to starter");
  await planDialog.getByRole("button", { name: "Change plan" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Plan changed" })).toBeVisible();
  await page.goto(`/admin/audit?target=${account.accountId}&action=account.set_plan`);
  const entries = page.getByRole("table", { name: "Audit entries" });
  await expect(entries).toContainText("was sandbox → now starter"); // a before/after diff, not raw JSON
  // The key's deactivation kept its reason; the target is shown by name with the id on hover.
  await page.goto(`/admin/audit?target=${account.accountId}&action=key.deactivate`);
  await expect(entries).toContainText("Key posted in a public repository");
  await expect(entries.getByTitle(`key:${created.id}`)).toContainText(`${created.prefix}…`);
});

/** @serial: "nothing written" reads the newest audit row of the whole database, which no other spec may move meanwhile. */
test("bad input on every admin form: a clear message next to the field, nothing written", { tag: "@serial" }, async ({
  page,
  baseURL,
}) => {
  await signInAdmin(page, baseURL);
  const newestAudit = async () =>
    ((await (await page.request.get("/api/admin/audit")).json()) as { data: { rows: { id: number }[] } }).data.rows[0]
      .id;
  const before = await newestAudit();
  await page.goto("/admin/licensing");
  await page.getByRole("textbox", { name: "Reason", exact: true }).fill("x");
  await page.getByRole("button", { name: "Change state" }).click();
  await expect(page.getByText("A reason of 3–500 characters is required.")).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Reason", exact: true })).toHaveAttribute("aria-invalid", "true");
  await page.goto("/admin/accounts");
  await page.getByLabel("E-mail, account id or key prefix").fill("a");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.locator("main").getByRole("alert")).toContainText("Search needs 2–200 characters.");
  await page.goto("/admin/audit");
  await page.getByLabel("From", { exact: true }).fill("soon");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByLabel("From", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("main").getByRole("alert")).toContainText("from is a date or time");
  await expect(page.locator("main").getByText(/from is a date or time/), "said once, under its field").toHaveCount(1);
  expect(await newestAudit(), "no audit row was written").toBe(before);
  const bad = await page.request.post("/api/admin/licensing", {
    data: { endpointId: "GET /api/v1/options-flow", env: "live", state: "enabled", reason: "" },
    headers: portalOrigin(baseURL),
  });
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { error: { field: string } }).error.field).toBe("reason");
});
