/**
 * What the dashboard says about verifying the e-mail address, from what actually happened to the link: "we sent a link"
 * only when a live link went out by mail; without a mail server the link is in the server log (no mail was sent);
 * without a live link (none issued, its mail failed, or it expired) the person is asked to send one.
 */
export interface VerifyNoticeInput {
  email: string;
  /** A verification link was issued in the last 24 hours, not used, and its mail did not fail. */
  linkWaiting: boolean;
  /** How this server delivers mail: by SMTP, or into the server log (SMTP_URL not set). */
  delivery: "smtp" | "log";
}

export const VERIFY_NEEDS = "Live keys and access requests need a verified address.";

export function verifyNotice({ email, linkWaiting, delivery }: VerifyNoticeInput): string {
  if (!linkWaiting)
    return `No verification link is waiting for ${email}: send one with the button below. ${VERIFY_NEEDS}`;
  if (delivery === "log")
    return `This server has no mail server configured (SMTP_URL), so no mail was sent: the link for ${email} is in the server log. ${VERIFY_NEEDS}`;
  return `We sent a link to ${email}. ${VERIFY_NEEDS}`;
}

/**
 * The sign-up form's note when it cannot sign the person in (the address may have had an account: the answer does not
 * tell). "We sent a message" only when this server sends mail; otherwise it says where the message went.
 */
export function signUpSentNote(email: string, delivery: "smtp" | "log"): string {
  const what = "If you already have an account, it tells you how to sign in or reset your password.";
  return delivery === "smtp"
    ? `We sent a message to ${email}. ${what}`
    : `This server has no mail server configured (SMTP_URL), so no mail was sent: the message for ${email} is in the server log. ${what}`;
}
