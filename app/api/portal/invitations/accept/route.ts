/**
 * Accepts an invitation link: a signed-in user with the invited address joins; a new address signs up on the way
 * (password, terms) and then signs in. An existing user who is not signed in answers 401 (sign in, then accept).
 */
import { currentPortalUser } from "@/lib/auth/portal-user";
import { acceptInvitation } from "@/lib/domain/invitations";
import { acceptInvitationBody } from "@/lib/portal/schemas";
import { publicPortalRoute } from "../../portal-route";

export const runtime = "nodejs";

export const POST = publicPortalRoute({ body: acceptInvitationBody }, async ({ db, body, origin }) => {
  const user = await currentPortalUser();
  return acceptInvitation(db, body, user ? { id: user.userId, email: user.email } : null, origin);
});
