/** Team members for e2e specs: invited over the portal's API, the link read from the mail the test SMTP server caught. */
import { randomBytes } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import type { Role } from "../../lib/shared/roles";
import { linkIn, type MailReader } from "./mailbox";
import { portalOrigin, signIn } from "./portal";

export interface TeamMemberUser {
  email: string;
  password: string;
  role: Role;
}

/** The invitation link mailed to `email` (waits for the mail), removed from the mailbox so a second one can be read. */
export async function invitationLink(mailbox: MailReader, email: string): Promise<string> {
  const mail = await mailbox.waitFor(email.toLowerCase(), 20_000);
  mailbox.messages.splice(mailbox.messages.indexOf(mail), 1);
  return linkIn(mail);
}

/** `owner` (signed in) invites a new address as `role`; `member` (a fresh context) accepts and is left signed in. */
export async function inviteAndJoin(
  owner: APIRequestContext,
  member: APIRequestContext,
  mailbox: MailReader,
  role: Role,
  baseURL?: string,
): Promise<TeamMemberUser> {
  const email = `${role}_${randomBytes(5).toString("hex")}@example.com`;
  const password = `pw-${randomBytes(9).toString("base64url")}`;
  const headers = portalOrigin(baseURL);
  const invited = await owner.post("/api/portal/team/invitations", { data: { email, role }, headers });
  if (invited.status() !== 201) throw new Error(`invite failed: ${invited.status()} ${await invited.text()}`);
  const token = new URL(await invitationLink(mailbox, email)).searchParams.get("token");
  const accepted = await member.post("/api/portal/invitations/accept", {
    data: { token, password, acceptTerms: true },
    headers,
  });
  if (accepted.status() !== 200) throw new Error(`accept failed: ${accepted.status()} ${await accepted.text()}`);
  await signIn(member, email, password);
  return { email, password, role };
}
