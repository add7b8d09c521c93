/** GET: the account's playground key (id and display prefix only); null before its first use. */
import { playgroundKeyInfo } from "@/lib/domain/playground";
import { portalRoute } from "@/lib/portal/route";
import { portalDb } from "@/lib/server/portal-db";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = portalRoute(async ({ user }) => playgroundKeyInfo(await portalDb(), user.accountId));
