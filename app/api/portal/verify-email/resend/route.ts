/** Sends a new verification link to the signed-in user (earlier links stop working). */
import { DomainError } from "@/lib/domain/errors";
import { errorFields, log } from "@/lib/log";
import { sendVerificationMail } from "@/lib/mail/account-mail";
import { portalError } from "@/lib/portal/route";
import { portalRoute } from "../../portal-route";

export const runtime = "nodejs";

export const POST = portalRoute({}, async ({ db, user, requestId }) => {
  try {
    return { delivery: await sendVerificationMail(db, user.userId) };
  } catch (err) {
    if (err instanceof DomainError) throw err;
    log.error("verification mail failed", { request_id: requestId, ...errorFields(err) });
    return portalError(
      503,
      "mail_unavailable",
      "The mail server could not be reached; try again in a few minutes.",
      requestId,
    );
  }
});
