/** The access-request decision mails: approval tells the requester their live key waits, once, on their Access page. */
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { accessRequests, users } from "../../db/schema";
import { appUrl } from "../env";
import { approveAccessRequest } from "../domain/access-requests";
import type { Actor } from "../domain/audit";
import { errorFields, log } from "../log";
import { mailSettings, sendMail, type Delivery, type MailSettings } from "./mailer";

export function approvalMail(to: string, company: string, link: string) {
  return {
    to,
    link,
    subject: "Your API access request was approved",
    text: `Your API access request for ${company} was approved. Your live key (svc_sk_live_…) waits on your Access requests page, where it is shown once:\n\n${link}\n\nCopy it when you open the page; it is not shown again.\n`,
  };
}

/** Approves (the key is issued in the domain's transaction), then mails the requester; answers how the mail went. */
export async function approveAndMail(
  db: Db,
  id: string,
  actor: Actor,
  secret: string,
  settings: MailSettings = mailSettings(),
) {
  const view = await approveAccessRequest(db, id, actor, secret);
  const [who] = await db
    .select({ email: users.email })
    .from(accessRequests)
    .innerJoin(users, eq(users.id, accessRequests.userId))
    .where(eq(accessRequests.id, id));
  // The key is issued and committed: a mail server that fails is reported, never turned into a failed approval.
  const mailed: Delivery | "failed" = await sendMail(
    approvalMail(who.email, view.company, `${appUrl()}/dashboard/access`),
    settings,
  ).catch((err) => {
    log.warn("approval mail failed", { request: id, ...errorFields(err) });
    return "failed" as const;
  });
  return { ...view, mailedTo: who.email, mailed };
}
