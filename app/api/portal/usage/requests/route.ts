/** One page of the signed-in account's request log, with filters and a keyset cursor. */
import { z } from "zod";
import { requestLog, STATUS_CLASSES } from "@/lib/domain/usage";
import { portalRoute } from "@/lib/portal/route";
import { portalDb } from "@/lib/server/portal-db";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const time = z.iso.datetime({ offset: true }).transform((s) => new Date(s));
const query = z
  .object({
    key: z.string().min(1).max(64).optional(),
    route: z.string().min(1).max(200).optional(),
    status: z.enum(STATUS_CLASSES).optional(),
    from: time.optional(),
    to: time.optional(),
    cursor: z.string().min(1).max(200).optional(),
    limit: z.coerce.number().int().min(1).max(100).optional(),
  })
  .strict();

export const GET = portalRoute(async ({ request, user }) => {
  const params = Object.fromEntries([...new URL(request.url).searchParams].filter(([, v]) => v !== ""));
  const q = query.parse(params);
  return requestLog(await portalDb(), user.accountId, {
    keyId: q.key,
    endpointId: q.route,
    statusClass: q.status,
    from: q.from,
    to: q.to,
    cursor: q.cursor,
    limit: q.limit,
  });
});
