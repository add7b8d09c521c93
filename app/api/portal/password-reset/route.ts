/** Asks for a password-reset link. The answer is the same whether or not the address has an account. */
import { z } from "zod";
import { normaliseEmail } from "@/lib/domain/accounts";
import { DomainError } from "@/lib/domain/errors";
import { errorFields, log } from "@/lib/log";
import { sendResetMail } from "@/lib/mail/account-mail";
import { mailSettings } from "@/lib/mail/mailer";
import { publicPortalRoute, readJson } from "@/lib/portal/route";
import { portalDb } from "@/lib/server/portal-db";

export const runtime = "nodejs";

const body = z.object({ email: z.string().max(320) }).strict();

export const POST = publicPortalRoute(
  async ({ request, requestId }) => {
    const email = normaliseEmail(body.parse(await readJson(request)).email);
    const settings = mailSettings();
    // A failed send must not answer differently from an unknown address; the per-address limit applies to both alike.
    await sendResetMail(await portalDb(), email, settings).catch((err) => {
      if (err instanceof DomainError) throw err;
      log.error("reset mail failed", { request_id: requestId, ...errorFields(err) });
    });
    return { delivery: settings.smtpUrl ? "smtp" : "log" };
  },
  { status: 202 },
);
