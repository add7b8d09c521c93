/** Accepts the current terms of use (version and time recorded, audited); open to users whose accepted version is outdated. */
import { acceptTerms } from "@/lib/domain/terms";
import { termsBody } from "@/lib/portal/schemas";
import { portalRoute } from "../portal-route";

export const runtime = "nodejs";

export const POST = portalRoute({ body: termsBody, outdatedTerms: true }, async ({ db, user, actor, body }) =>
  acceptTerms(db, user.userId, body.version, actor),
);
