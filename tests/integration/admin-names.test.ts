/**
 * The admin console's domain changes for issue 32 against a real PostgreSQL and a real SMTP server on loopback: approval
 * mails the requester (and a failing mail server never undoes it), deactivation needs a reason the audit log keeps, the
 * accounts page's recent and most active lists, and the audit page's target labels and vocabulary.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { submitAccessRequest } from "../../lib/domain/access-requests";
import { setAccountStatus } from "../../lib/domain/accounts";
import { accountHighlights } from "../../lib/domain/admin-account-lists";
import { deactivationReason, setKeyActive } from "../../lib/domain/admin-accounts";
import { auditVocabulary, targetLabels } from "../../lib/domain/admin-audit-labels";
import { adminActor } from "../../lib/domain/audit";
import { createKey } from "../../lib/domain/keys";
import { changeOwnPlan } from "../../lib/domain/plans";
import { seedReferenceData } from "../../lib/domain/seed";
import { endpointCatalogue } from "../../lib/api/routes";
import { approveAndMail } from "../../lib/mail/access-mail";
import { decodeBody, type Mailbox, startMailbox } from "../helpers/mailbox";
import { newOwner } from "../helpers/portal-domain";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";

const SECRET = "test-auth-secret-0123456789abcdef";
const OPERATOR = adminActor("test-operator");
let t: TestDatabase;
let mailbox: Mailbox;

async function pendingRequest(company: string) {
  const o = await newOwner(t.db);
  await changeOwnPlan(t.db, { accountId: o.accountId, plan: "starter" }, o.actor);
  const form = { company, useCase: "Nightly risk dashboards for our options desk.", expectedVolume: "1k_10k" };
  const r = await submitAccessRequest(t.db, { accountId: o.accountId, userId: o.userId, ...form }, o.actor);
  return { o, id: r.id };
}

describe("admin console: naming what changes", () => {
  before(async () => {
    t = await createTestDatabase("adminnames");
    await seedReferenceData(t.db, endpointCatalogue());
    mailbox = await startMailbox();
  });
  after(async () => {
    await mailbox?.close();
    await t?.drop();
  });

  it("approval mails the requester (no key in the mail); a mail server that fails leaves the approval standing", async () => {
    const { o, id } = await pendingRequest("Mailed Co");
    const smtp = { smtpUrl: mailbox.url, from: "Portal <no-reply@example.com>" };
    const approved = await approveAndMail(t.db, id, OPERATOR, SECRET, smtp);
    assert.deepEqual([approved.status, approved.mailedTo, approved.mailed], ["approved", o.email, "smtp"]);
    const body = decodeBody((await mailbox.waitFor(o.email)).raw);
    assert.match(body, /access request for Mailed Co was approved/);
    assert.doesNotMatch(body, /svc_sk_live_[0-9A-Za-z]{20,}/);
    const second = await pendingRequest("Unmailed Co");
    const down = { smtpUrl: "smtp://127.0.0.1:1", from: "Portal <no-reply@example.com>" };
    const stillApproved = await approveAndMail(t.db, second.id, OPERATOR, SECRET, down);
    assert.deepEqual([stillApproved.status, stillApproved.mailed], ["approved", "failed"]);
  });

  it("deactivation needs a reason of 3–500 characters; the audit log keeps it", async () => {
    assert.throws(() => deactivationReason("inactive", " x "), { code: "invalid" });
    assert.throws(() => deactivationReason("inactive", undefined), { code: "invalid" });
    assert.equal(deactivationReason("active", undefined), undefined);
    const o = await newOwner(t.db);
    const key = await createKey(t.db, { accountId: o.accountId, env: "test" }, OPERATOR);
    await setKeyActive(t.db, { id: key.id }, false, OPERATOR, deactivationReason("inactive", "Key leaked on a forum"));
    await setAccountStatus(t.db, o.accountId, "inactive", OPERATOR, "Chargeback fraud");
    const rows = await t.sql<{ action: string; reason: string }[]>`
      select action, after->>'reason' as reason from audit_log
      where account_id = ${o.accountId} and action in ('key.deactivate', 'account.deactivate') order by id`;
    assert.deepEqual(
      rows.map((r) => [r.action, r.reason]),
      [
        ["key.deactivate", "Key leaked on a forum"],
        ["account.deactivate", "Chargeback fraud"],
      ],
    );
  });

  it("recent accounts newest first; most active by calls in 30 days, accounts without calls left out", async () => {
    const quiet = await newOwner(t.db);
    const busy = await newOwner(t.db);
    const busier = await newOwner(t.db);
    const today = new Date().toISOString().slice(0, 10);
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10);
    for (const [a, calls, day] of [
      [busy.accountId, 5, today],
      [busier.accountId, 9, today],
      [quiet.accountId, 1000, old], // outside the 30 days
    ] as const)
      await t.sql`insert into usage_daily (key_id, account_id, day, endpoint_id, calls, ok_calls, client_errors, server_errors, latency_ms_sum)
        values (${`key_${a.slice(0, 8)}`}, ${a}, ${day}, 'GET /api/v1/health', ${calls}, ${calls}, 0, 0, 1)`;
    const h = await accountHighlights(t.db, new Date(), 3);
    assert.deepEqual(
      h.recent.map((a) => a.accountId),
      [busier.accountId, busy.accountId, quiet.accountId],
    );
    assert.deepEqual(
      h.active.map((a) => [a.accountId, a.calls30d]),
      [
        [busier.accountId, 9],
        [busy.accountId, 5],
      ],
    );
    assert.equal(h.recent[0].owner, busier.email);
  });

  it("audit targets by e-mail, account name or key name; the vocabulary lists recorded actions and people", async () => {
    const o = await newOwner(t.db);
    const key = await createKey(t.db, { accountId: o.accountId, env: "test", name: "Desk key" }, o.actor);
    const labels = await targetLabels(t.db, [
      `user:${o.userId}`,
      `account:${o.accountId}`,
      `key:${key.id}`,
      "endpoint:GET /api/v1/health",
    ]);
    assert.equal(labels.get(`user:${o.userId}`), o.email);
    assert.equal(labels.get(`account:${o.accountId}`), o.email); // an account is named after its first e-mail
    assert.equal(labels.get(`key:${key.id}`), `Desk key (${key.prefix}…)`);
    assert.equal(labels.has("endpoint:GET /api/v1/health"), false);
    const v = await auditVocabulary(t.db);
    assert.ok(v.actions.includes("key.create") && v.actions.includes("account.create"));
    assert.ok(v.actors.includes(o.email));
  });
});
