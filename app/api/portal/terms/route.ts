/** Accepts the current terms of use (version and time recorded, audited); open to users whose accepted version is outdated. */
import { z } from "zod";
import { acceptTerms } from "@/lib/domain/terms";
import { portalRoute, readJson } from "@/lib/portal/route";
import { portalDb } from "@/lib/server/portal-db";

export const runtime = "nodejs";

const body = z.object({ version: z.number().int() }).strict();

export const POST = portalRoute(
  async ({ request, user, actor }) => {
    const { version } = body.parse(await readJson(request));
    return acceptTerms(await portalDb(), user.userId, version, actor);
  },
  { outdatedTerms: true },
);
