/**
 * The account mails (verify, reset, "you already have an account"): a link on APP_URL and a delivery the page reports.
 * Mails a signed-out visitor triggers (sign-up, reset) are sent from the queue, so the answer's timing says nothing about
 * whether the address has an account.
 */
import type { Db } from "../db/client";
import { appUrl } from "../env";
import { startEmailVerification, startPasswordReset } from "../domain/user-credentials";
import { withdrawToken, TOKEN_TTL_MS } from "../domain/one-time-tokens";
import { normaliseEmail, type SignupActor } from "../domain/accounts";
import { type SignupInput, signUpQuietly } from "../domain/users";
import { DomainError } from "../domain/errors";
import { takeSlot, windowOf, type Counter } from "../domain/portal-counters";
import { mailSettings, sendMail, type Delivery, type MailSettings } from "./mailer";
import { enqueueMail } from "./queue";
import { log } from "../log";

export function verificationMail(to: string, link: string) {
  return {
    to,
    link,
    subject: "Verify your e-mail address",
    text: `Open this link to verify your e-mail address for the Options Research API:\n\n${link}\n\nIt works once and expires in ${TOKEN_TTL_MS.verify / 3600_000} hours. If you did not sign up, ignore this mail.\n`,
  };
}

export function resetMail(to: string, link: string) {
  return {
    to,
    link,
    subject: "Reset your password",
    text: `Open this link to choose a new password for the Options Research API:\n\n${link}\n\nIt works once and expires in ${TOKEN_TTL_MS.reset / 3600_000} hour. If you did not ask for it, ignore this mail; your password stays as it is.\n`,
  };
}

/** Sent instead of a verification mail when someone signs up with an address that already has an account. */
export function existingAccountMail(to: string, link: string) {
  return {
    to,
    link,
    subject: "You already have an account",
    text: `Someone (probably you) tried to create an Options Research API account with this address, but you already have one, so nothing was created or changed.\n\nIf you forgot your password, reset it here:\n\n${link}\n\nIf you remember it, just sign in. If this was not you, ignore this mail; your account stays as it is.\n`,
  };
}

/** Mails of one kind to one recipient per hour (mail:verify per user, mail:reset per address, known or not). */
export const MAILS_PER_HOUR = 5;

const mailCounter = (bucket: string, key: string): Counter => ({
  key,
  bucket,
  limit: MAILS_PER_HOUR,
  windowSeconds: 3600,
});

async function takeMailSlot(db: Db, bucket: string, key: string): Promise<void> {
  const counter = mailCounter(bucket, key);
  const now = new Date();
  if (await takeSlot(db, counter, now)) return;
  const { retryAfterSeconds } = windowOf(counter, now);
  const minutes = Math.ceil(retryAfterSeconds / 60);
  throw new DomainError(
    "rate_limited",
    `${MAILS_PER_HOUR} mails of this kind were sent to this address in the last hour; wait ${minutes} minute${minutes === 1 ? "" : "s"} and ask again.`,
    { retryAfterSeconds },
  );
}

export async function sendVerificationMail(
  db: Db,
  userId: string,
  settings: MailSettings = mailSettings(),
): Promise<Delivery> {
  await takeMailSlot(db, "mail:verify", userId);
  const { email, token } = await startEmailVerification(db, userId);
  try {
    return await sendMail(verificationMail(email, `${appUrl()}/verify-email?token=${token}`), settings);
  } catch (err) {
    // No one holds this link: withdrawn, so the dashboard does not say a link was sent.
    await withdrawToken(db, "verify", email);
    throw err;
  }
}

/**
 * Queues a reset link for the address (sent only when it has an account) and answers at once how mail is delivered: the
 * same answer, in the same time, whether or not the address exists. The per-address limit is taken before answering.
 */
export async function sendResetMail(
  db: Db,
  email: string,
  settings: MailSettings = mailSettings(),
  origin: { requestId?: string; ip?: string; userAgent?: string } = {},
): Promise<Delivery> {
  const normalised = normaliseEmail(email);
  await takeMailSlot(db, "mail:reset", normalised);
  enqueueMail("reset", async () => {
    const started = await startPasswordReset(db, normalised, origin);
    if (started)
      await sendMail(resetMail(started.email, `${appUrl()}/reset-password?token=${started.token}`), settings);
  });
  return settings.smtpUrl ? "smtp" : "log";
}

/**
 * The portal's sign-up: the same answer (and about the same time: the password is hashed and one transaction written
 * either way) whether or not the address has an account. The queue then mails a new user the verification link and an
 * existing one "you already have an account" (at most MAILS_PER_HOUR of those per user; more are dropped, logged).
 */
export async function requestSignUp(
  db: Db,
  input: SignupInput,
  actor: SignupActor,
  settings: MailSettings = mailSettings(),
): Promise<{ email: string; delivery: Delivery }> {
  const outcome = await signUpQuietly(db, input, actor);
  if (outcome.kind === "created") {
    const { userId } = outcome.account;
    enqueueMail("verify", () => sendVerificationMail(db, userId, settings));
  } else {
    const { userId, email } = outcome;
    enqueueMail("signup-existing", async () => {
      // Past the limit the mail is dropped, not refused: the answer went out already and must not differ anyway.
      if (!(await takeSlot(db, mailCounter("mail:signup-existing", userId), new Date())))
        return log.warn("mail dropped: per-recipient limit", { kind: "signup-existing", user_id: userId });
      await sendMail(existingAccountMail(email, `${appUrl()}/forgot-password`), settings);
    });
  }
  return { email: normaliseEmail(input.email), delivery: settings.smtpUrl ? "smtp" : "log" };
}
