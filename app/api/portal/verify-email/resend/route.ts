/** Sends a new verification link to the signed-in user (earlier links stop working). */
import { sendVerificationMail } from "@/lib/mail/account-mail";
import { portalRoute } from "@/lib/portal/route";
import { portalDb } from "@/lib/server/portal-db";

export const runtime = "nodejs";

export const POST = portalRoute(async ({ user }) => {
  const delivery = await sendVerificationMail(await portalDb(), user.userId);
  return { delivery };
});
