/** Sign-up: creates the user, a Sandbox account and the owner membership, and sends the verification mail; the form then signs in. */
import { z } from "zod";
import { signUp } from "@/lib/domain/users";
import { errorFields, log } from "@/lib/log";
import { sendVerificationMail } from "@/lib/mail/account-mail";
import { publicPortalRoute, readJson } from "@/lib/portal/route";
import { portalDb } from "@/lib/server/portal-db";

export const runtime = "nodejs";

const body = z
  .object({
    email: z.string().max(320),
    password: z.string().max(400),
    name: z.string().max(120).optional(),
    acceptTerms: z.boolean(),
  })
  .strict();

export const POST = publicPortalRoute(
  async ({ request, requestId, origin }) => {
    const input = body.parse(await readJson(request));
    const db = await portalDb();
    const account = await signUp(db, input, { type: "self", ...origin });
    // The account exists either way; a mail failure only means the user resends from the dashboard.
    const verificationMail = await sendVerificationMail(db, account.userId).catch((err) => {
      log.error("verification mail failed", { request_id: requestId, ...errorFields(err) });
      return "failed" as const;
    });
    return { email: account.email, accountId: account.accountId, verificationMail };
  },
  { status: 201 },
);
