/** The team's mails: an invitation with its single-use link (the link is in the mail only, never in an answer). */
import type { Db } from "../db/client";
import { appUrl } from "../env";
import type { Actor } from "../domain/audit";
import { inviteMember } from "../domain/invitations";
import { ROLE_LABELS, type Role } from "../shared/roles";
import { mailSettings, sendMail, type Delivery, type MailSettings } from "./mailer";

export function invitationMail(to: string, link: string, invite: { account: string; role: Role; by?: string }) {
  const who = invite.by ? `${invite.by} invites you` : "You are invited";
  return {
    to,
    link,
    subject: `Join ${invite.account} on the Options Research API`,
    text: `${who} to join the account "${invite.account}" on the Options Research API as ${ROLE_LABELS[invite.role]}.\n\nOpen this link to accept (a new address chooses a password on the way):\n\n${link}\n\nIt works once and expires in 7 days. If you did not expect it, ignore this mail.\n`,
  };
}

/** Creates the invitation and mails its link; answers the pending invitation and how the mail went out. */
export async function sendInvitationMail(
  db: Db,
  input: { accountId: string; email: string; role: string },
  actor: Actor,
  settings: MailSettings = mailSettings(),
): Promise<{ invitation: Awaited<ReturnType<typeof inviteMember>>["invitation"]; delivery: Delivery }> {
  const { invitation, token, accountName } = await inviteMember(db, input, actor);
  const link = `${appUrl()}/invite?token=${token}`;
  const mail = invitationMail(invitation.email, link, { account: accountName, role: invitation.role, by: actor.email });
  return { invitation, delivery: await sendMail(mail, settings) };
}
