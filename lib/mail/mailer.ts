/**
 * Outgoing mail: nodemailer over SMTP_URL when it is set; without it the message (with its link) is written to the
 * server log as structured JSON, so a local set-up still works. Callers tell the user which of the two happened.
 */
import nodemailer, { type Transporter } from "nodemailer";
import { appEnv } from "../env";
import { log } from "../log";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The one link the mail carries (logged when there is no SMTP server). */
  link: string;
}

export type Delivery = "smtp" | "log";

export interface MailSettings {
  smtpUrl?: string;
  from: string;
}

const transports = new Map<string, Transporter>();

function transport(url: string): Transporter {
  let t = transports.get(url);
  if (!t) {
    t = nodemailer.createTransport(url);
    transports.set(url, t);
  }
  return t;
}

export function mailSettings(): MailSettings {
  const env = appEnv();
  return { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM };
}

/** Sends (or logs) one mail; SMTP failures are thrown to the caller, which decides whether the request fails. */
export async function sendMail(mail: Mail, settings: MailSettings = mailSettings()): Promise<Delivery> {
  if (!settings.smtpUrl) {
    log.info("mail not sent (SMTP_URL is not set); the link is here", {
      to: mail.to,
      subject: mail.subject,
      link: mail.link,
    });
    return "log";
  }
  await transport(settings.smtpUrl).sendMail({
    from: settings.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
  });
  log.info("mail sent", { to: mail.to, subject: mail.subject });
  return "smtp";
}
