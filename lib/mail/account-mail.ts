/** The two account mails (verify, reset): a token, a link on APP_URL and a delivery the page reports. */
import type { Db } from "../db/client";
import { appUrl } from "../env";
import { startEmailVerification, startPasswordReset } from "../domain/user-credentials";
import { TOKEN_TTL_MS } from "../domain/one-time-tokens";
import { mailSettings, sendMail, type Delivery, type MailSettings } from "./mailer";

export function verificationMail(to: string, link: string) {
  return {
    to, link,
    subject: "Verify your e-mail address",
    text: `Open this link to verify your e-mail address for the Options Research API:\n\n${link}\n\nIt works once and expires in ${TOKEN_TTL_MS.verify / 3600_000} hours. If you did not sign up, ignore this mail.\n`,
  };
}

export function resetMail(to: string, link: string) {
  return {
    to, link,
    subject: "Reset your password",
    text: `Open this link to choose a new password for the Options Research API:\n\n${link}\n\nIt works once and expires in ${TOKEN_TTL_MS.reset / 3600_000} hour. If you did not ask for it, ignore this mail; your password stays as it is.\n`,
  };
}

export async function sendVerificationMail(db: Db, userId: string, settings: MailSettings = mailSettings()): Promise<Delivery> {
  const { email, token } = await startEmailVerification(db, userId);
  return sendMail(verificationMail(email, `${appUrl()}/verify-email?token=${token}`), settings);
}

/** Sends a reset link when the address has an account; the answer (how mail is delivered) is the same either way. */
export async function sendResetMail(db: Db, email: string, settings: MailSettings = mailSettings()): Promise<Delivery> {
  const started = await startPasswordReset(db, email);
  if (!started) return settings.smtpUrl ? "smtp" : "log";
  return sendMail(resetMail(started.email, `${appUrl()}/reset-password?token=${started.token}`), settings);
}
