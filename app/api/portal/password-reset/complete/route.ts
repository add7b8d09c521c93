/** Sets a new password from a reset link's token (used once, 1 hour). */
import { resetPasswordByToken } from "@/lib/domain/user-credentials";
import { passwordResetCompleteBody } from "@/lib/portal/schemas";
import { publicPortalRoute } from "../../portal-route";

export const runtime = "nodejs";

export const POST = publicPortalRoute({ body: passwordResetCompleteBody }, async ({ db, body, origin }) =>
  resetPasswordByToken(db, body.token, body.password, origin),
);
