/** Sets a new password from a reset link's token (used once, 1 hour). */
import { z } from "zod";
import { resetPasswordByToken } from "@/lib/domain/user-credentials";
import { publicPortalRoute, readJson } from "@/lib/portal/route";
import { portalDb } from "@/lib/server/portal-db";

export const runtime = "nodejs";

const body = z.object({ token: z.string().max(200), password: z.string().max(400) }).strict();

export const POST = publicPortalRoute(async ({ request, origin }) => {
  const input = body.parse(await readJson(request));
  return resetPasswordByToken(await portalDb(), input.token, input.password, origin);
});
