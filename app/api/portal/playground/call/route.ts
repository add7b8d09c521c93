/** POST: one playground request through the in-process gateway, with a pasted key or the account's playground key (never logged, never returned). */
import { z } from "zod";
import { playgroundKey } from "@/lib/domain/playground";
import { callGateway } from "@/lib/portal/playground-call";
import { portalRoute, readJson } from "@/lib/portal/route";
import { sharedGateway } from "@/lib/server/gateway";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const values = z.record(z.string().max(100), z.string().max(2000));
const input = z
  .object({
    operation: z.string().min(1).max(200),
    params: values.default({}),
    query: values.default({}),
    body: z.unknown().optional(),
    key: z.string().min(1).max(200).optional(),
  })
  .strict();

export const POST = portalRoute(async ({ request, user, actor }) => {
  const req = input.parse(await readJson(request));
  const gateway = await sharedGateway();
  const key = async () =>
    req.key ?? (await playgroundKey(gateway.database.db, user.accountId, actor, user.role === "owner")).key;
  return callGateway(gateway.handle, new URL(request.url).origin, req, key);
});
