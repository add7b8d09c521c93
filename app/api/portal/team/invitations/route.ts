/** Invites someone by e-mail with a role (Admin and up; only the Owner invites an Owner): a single-use link mailed. */
import { sendInvitationMail } from "@/lib/mail/team-mail";
import { inviteBody } from "@/lib/portal/schemas";
import { portalRoute } from "../../portal-route";

export const runtime = "nodejs";

export const POST = portalRoute({ body: inviteBody, status: 201 }, async ({ db, user, actor, body }) =>
  sendInvitationMail(db, { accountId: user.accountId, ...body }, actor),
);
