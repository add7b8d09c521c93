/** Sign-up: creates the user, a Sandbox account and the owner membership, and sends the verification mail; the form then signs in. */
import { signUp } from "@/lib/domain/users";
import { errorFields, log } from "@/lib/log";
import { sendVerificationMail } from "@/lib/mail/account-mail";
import { signUpBody } from "@/lib/portal/schemas";
import { publicPortalRoute } from "../portal-route";

export const runtime = "nodejs";

export const POST = publicPortalRoute({ body: signUpBody, status: 201 }, async ({ db, body, requestId, origin }) => {
  const account = await signUp(db, body, { type: "self", ...origin });
  // The account exists either way; a mail failure only means the user resends from the dashboard.
  const verificationMail = await sendVerificationMail(db, account.userId).catch((err) => {
    log.error("verification mail failed", { request_id: requestId, ...errorFields(err) });
    return "failed" as const;
  });
  return { email: account.email, accountId: account.accountId, verificationMail };
});
