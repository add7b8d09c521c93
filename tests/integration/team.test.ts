/**
 * Teams against a real PostgreSQL and a real SMTP server on loopback: invitations mailed with a single-use 7-day link
 * (digest stored only), accepting as a new or an existing user, the one-Owner rule, roles checked by the domain
 * (a Developer and live keys), removal ending sessions at once, the account switcher and the audit log's member e-mail.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import type { Actor } from "../../lib/domain/audit";
import { acceptInvitation, describeInvitation, INVITATION_TTL_MS } from "../../lib/domain/invitations";
import { changeKeyStatus, createKey, createOwnKey } from "../../lib/domain/keys";
import { seedReferenceData } from "../../lib/domain/seed";
import { checkSession, startSession } from "../../lib/domain/sessions";
import { changeMemberRole, listTeam, removeMember, switchAccount, transferOwnership } from "../../lib/domain/team";
import { loadPortalSession, verifyCredentials } from "../../lib/domain/users";
import type { MailSettings } from "../../lib/mail/mailer";
import { sendInvitationMail } from "../../lib/mail/team-mail";
import { endpointCatalogue } from "../../lib/api/routes";
import type { Role } from "../../lib/shared/roles";
import { decodeBody, linkIn, type Mailbox, startMailbox } from "../helpers/mailbox";
import { expectRefused, newOwner, type Owner } from "../helpers/portal-domain";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";

let t: TestDatabase;
let mailbox: Mailbox;
let smtp: MailSettings;
const PW = "correct horse battery";
const address = () => `mem_${randomBytes(5).toString("hex")}@example.com`;
const member = (o: Owner, role: Role = "owner"): Actor => ({ ...o.actor, email: o.email, role });
const origin = { requestId: "req_accept" };
const tokenOf = (link: string) => new URL(link).searchParams.get("token") ?? "";

/** Invites `email` as `role` by mail and answers the link's token, read from the mail the SMTP server received. */
async function invite(o: Owner, email: string, role: Role, by: Actor = member(o)): Promise<string> {
  const sent = await sendInvitationMail(t.db, { accountId: o.accountId, email, role }, by, smtp);
  assert.equal(sent.delivery, "smtp");
  const mail = await mailbox.waitFor(email);
  mailbox.messages.splice(mailbox.messages.indexOf(mail), 1);
  return tokenOf(linkIn(mail));
}

/** A new person joins `o`'s account as `role`; answers their user id. */
async function join(o: Owner, role: Role): Promise<{ userId: string; email: string; actor: Actor }> {
  const email = address();
  const token = await invite(o, email, role);
  await acceptInvitation(t.db, { token, password: PW, acceptTerms: true }, null, origin);
  const [u] = await t.sql<{ id: string }[]>`select id from users where email = ${email}`;
  return { userId: u.id, email, actor: { type: "user", id: u.id, email, role } };
}

describe("teams", () => {
  before(async () => {
    t = await createTestDatabase("team");
    await seedReferenceData(t.db, endpointCatalogue());
    mailbox = await startMailbox();
    smtp = { smtpUrl: mailbox.url, from: "Portal <no-reply@example.com>" };
  });
  after(async () => {
    await mailbox?.close();
    await t?.drop();
  });

  it("mails a single-use link valid 7 days; only its digest is stored; a new person signs up on the way", async () => {
    const o = await newOwner(t.db);
    const email = address();
    const sent = await sendInvitationMail(t.db, { accountId: o.accountId, email, role: "developer" }, member(o), smtp);
    assert.equal(JSON.stringify(sent).includes("token"), false, "the answer carries no link");
    const mail = await mailbox.waitFor(email);
    assert.match(decodeBody(mail.raw), /as Developer/);
    assert.match(decodeBody(mail.raw), new RegExp(o.email.replace(".", "\\.")), "names who invites");
    const token = tokenOf(linkIn(mail));
    const [row] = await t.sql`select token_digest, expires_at, created_at from invitations where email = ${email}`;
    assert.notEqual(row.token_digest, token);
    assert.equal(new Date(row.expires_at).getTime() - new Date(row.created_at).getTime(), INVITATION_TTL_MS);
    assert.equal((await describeInvitation(t.db, token))?.userExists, false);
    await expectRefused(
      t.sql,
      () => acceptInvitation(t.db, { token, password: PW }, null, origin),
      { code: "invalid", field: "acceptTerms" },
      ["users", "memberships"],
    );
    const joined = await acceptInvitation(t.db, { token, password: PW, acceptTerms: true }, null, origin);
    assert.deepEqual(joined, { accountId: o.accountId, role: "developer", email, created: true });
    assert.ok(await verifyCredentials(t.db, email, PW), "the new member signs in with the password chosen");
    const team = await listTeam(t.db, o.accountId);
    const m = team.members.find((x) => x.email === email);
    assert.equal(m?.role, "developer");
    assert.equal(m?.invitedBy, o.email);
    assert.equal(team.members[0].role, "owner");
    await expectRefused(t.sql, () => acceptInvitation(t.db, { token, password: PW, acceptTerms: true }, null, origin), {
      code: "invalid",
      field: "token",
    });
  });

  it("an expired link and a withdrawn (re-sent) one do not work", async () => {
    const o = await newOwner(t.db);
    const email = address();
    const first = await invite(o, email, "viewer");
    const second = await invite(o, email, "viewer");
    const later = new Date(Date.now() + INVITATION_TTL_MS + 1000);
    await expectRefused(
      t.sql,
      () => acceptInvitation(t.db, { token: first, password: PW, acceptTerms: true }, null, origin),
      {
        code: "invalid",
        field: "token",
      },
    );
    await expectRefused(
      t.sql,
      () => acceptInvitation(t.db, { token: second, password: PW, acceptTerms: true }, null, origin, later),
      { code: "invalid", field: "token" },
    );
  });

  it("an existing user accepts only when signed in as the invited address; the switcher moves between accounts", async () => {
    const a = await newOwner(t.db);
    const b = await newOwner(t.db);
    const token = await invite(a, b.email, "admin");
    assert.equal((await describeInvitation(t.db, token))?.userExists, true);
    await expectRefused(t.sql, () => acceptInvitation(t.db, { token }, null, origin), { code: "unauthenticated" }, [
      "memberships",
    ]);
    await expectRefused(
      t.sql,
      () => acceptInvitation(t.db, { token }, { id: a.userId, email: a.email }, origin),
      { code: "unauthenticated" },
      ["memberships"],
    );
    await acceptInvitation(t.db, { token }, { id: b.userId, email: b.email }, origin);
    const session = await loadPortalSession(t.db, b.userId);
    assert.equal(session?.user.accountId, a.accountId, "the account just joined is the one the portal acts on");
    assert.equal(session?.user.role, "admin");
    assert.deepEqual(session?.user.accounts.map((x) => x.role).sort(), ["admin", "owner"]);
    await switchAccount(t.db, b.userId, b.accountId);
    assert.equal((await loadPortalSession(t.db, b.userId))?.user.accountId, b.accountId);
    await assert.rejects(switchAccount(t.db, a.userId, b.accountId), { code: "not_found" });
  });

  it("a Developer manages test keys but not live ones; only the Owner invites an Owner", async () => {
    const o = await newOwner(t.db, { plan: "pro" });
    const dev = await join(o, "developer");
    const admin = await join(o, "admin");
    const key = { accountId: o.accountId, userId: dev.userId, name: "ci" };
    const test = await createOwnKey(t.db, { ...key, env: "test" }, dev.actor);
    assert.equal(test.env, "test");
    await expectRefused(t.sql, () => createOwnKey(t.db, { ...key, env: "live" }, dev.actor), {
      code: "forbidden",
      message: /Developer.*Admin or above/,
    });
    const live = await createKey(t.db, { accountId: o.accountId, env: "live" }, member(o));
    await expectRefused(t.sql, () => changeKeyStatus(t.db, live.id, "revoke", dev.actor, o.accountId), {
      code: "forbidden",
    });
    await changeKeyStatus(t.db, live.id, "revoke", admin.actor, o.accountId);
    await assert.rejects(
      sendInvitationMail(t.db, { accountId: o.accountId, email: address(), role: "owner" }, admin.actor, smtp),
      { code: "forbidden" },
    );
    const [audit] =
      await t.sql`select actor_email from audit_log where action = 'key.create' and actor_id = ${dev.userId}`;
    assert.equal(audit.actor_email, dev.email, "the audit log records the member's e-mail");
  });

  it("exactly one Owner: not removable, not demotable, a second one refused by the database; transfer swaps", async () => {
    const o = await newOwner(t.db);
    const adm = await join(o, "admin");
    await assert.rejects(removeMember(t.db, o.accountId, o.userId, adm.actor), { code: "forbidden" });
    await assert.rejects(changeMemberRole(t.db, o.accountId, adm.userId, "owner", member(o)), { code: "invalid" });
    await assert.rejects(
      t.sql`update memberships set role = 'owner' where user_id = ${adm.userId} and account_id = ${o.accountId}`,
      /memberships_one_owner_idx/,
    );
    await transferOwnership(t.db, o.accountId, adm.userId, member(o));
    const roles = (await listTeam(t.db, o.accountId)).members.map((m) => [m.email, m.role]);
    assert.deepEqual(roles, [
      [adm.email, "owner"],
      [o.email, "admin"],
    ]);
  });

  it("removing a member ends their sessions at once; without another account they are signed out, and signing in again opens a Sandbox account of their own", async () => {
    const o = await newOwner(t.db);
    const dev = await join(o, "developer");
    const sid = await startSession(t.db, dev.userId);
    assert.equal(await checkSession(t.db, sid, dev.userId), true);
    const removed = await removeMember(t.db, o.accountId, dev.userId, member(o));
    assert.equal(removed.sessionsEnded, 1);
    assert.equal(await checkSession(t.db, sid, dev.userId), false);
    assert.equal(await loadPortalSession(t.db, dev.userId), null);
    // Signing in again is not a dead end (they cannot sign up: the address exists): a new account of their own.
    assert.equal((await verifyCredentials(t.db, dev.email, PW))?.id, dev.userId);
    const own = (await loadPortalSession(t.db, dev.userId))?.user;
    assert.ok(own && own.accountId !== o.accountId);
    assert.equal(own.role, "owner");
    assert.deepEqual(
      own.accounts.map((a) => a.accountId),
      [own.accountId],
      "the team's account is not among theirs",
    );
    const [plan] = await t.sql`select plan_id from accounts where id = ${own.accountId}`;
    assert.equal(plan.plan_id, "sandbox");
    assert.equal((await verifyCredentials(t.db, dev.email, PW))?.id, dev.userId);
    const [n] = await t.sql`select count(*)::int as n from memberships where user_id = ${dev.userId}`;
    assert.equal(n.n, 1, "a second sign-in makes no second account");
    assert.equal(await verifyCredentials(t.db, dev.email, "not the password at all"), null);
    const [created] =
      await t.sql`select after from audit_log where action = 'account.create' and account_id = ${own.accountId}`;
    assert.equal(created.after.reason, "signed in with no account left");
    const [audit] =
      await t.sql`select actor_email, before from audit_log where action = 'member.remove' and target = ${`user:${dev.userId}`}`;
    assert.equal(audit.actor_email, o.email);
    assert.equal(audit.before.email, dev.email);
  });
});
