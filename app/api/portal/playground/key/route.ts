/**
 * GET: the account's playground key (id and display prefix only); null when it has none.
 * POST (owner): creates it on the user's click, a Sandbox test key named "Playground"; the key is in this answer only.
 */
import { createPlaygroundKey, playgroundKeyInfo } from "@/lib/domain/playground";
import { portalRoute } from "../../portal-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = portalRoute({}, async ({ db, user }) => playgroundKeyInfo(db, user.accountId));

export const POST = portalRoute({ owner: true, status: 201 }, async ({ db, user, actor }) =>
  createPlaygroundKey(db, user.accountId, actor),
);
