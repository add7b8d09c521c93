/**
 * Sign-up: a new address gets a Sandbox account and a verification mail; an address that already has an account gets a
 * mail saying so. The answer (202, the address and how mail is delivered) is the same either way; the form then signs in.
 */
import { requestSignUp } from "@/lib/mail/account-mail";
import { signUpBody } from "@/lib/portal/schemas";
import { publicPortalRoute } from "../portal-route";

export const runtime = "nodejs";

export const POST = publicPortalRoute({ body: signUpBody, status: 202 }, ({ db, body, origin }) =>
  requestSignUp(db, body, { type: "self", ...origin }),
);
