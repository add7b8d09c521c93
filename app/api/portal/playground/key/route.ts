/** GET: the account's playground key (id and display prefix only); null before its first use. */
import { playgroundKeyInfo } from "@/lib/domain/playground";
import { portalRoute } from "../../portal-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = portalRoute({}, async ({ db, user }) => playgroundKeyInfo(db, user.accountId));
