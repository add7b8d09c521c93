/** Asks for a password-reset link. The answer is the same whether or not the address has an account. */
import { normaliseEmail } from "@/lib/domain/accounts";
import { DomainError } from "@/lib/domain/errors";
import { errorFields, log } from "@/lib/log";
import { sendResetMail } from "@/lib/mail/account-mail";
import { mailSettings } from "@/lib/mail/mailer";
import { passwordResetBody } from "@/lib/portal/schemas";
import { publicPortalRoute } from "../portal-route";

export const runtime = "nodejs";

export const POST = publicPortalRoute(
  { body: passwordResetBody, status: 202 },
  async ({ db, body, requestId, origin }) => {
    const settings = mailSettings();
    // A failed send must not answer differently from an unknown address; the per-address limit applies to both alike.
    await sendResetMail(db, normaliseEmail(body.email), settings, origin).catch((err) => {
      if (err instanceof DomainError) throw err;
      log.error("reset mail failed", { request_id: requestId, ...errorFields(err) });
    });
    return { delivery: settings.smtpUrl ? "smtp" : "log" };
  },
);
