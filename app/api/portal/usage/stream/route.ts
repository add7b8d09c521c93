/** The signed-in account's live streams: open per key (leases) and the stream's metered rows (lib/domain/stream-usage.ts). */
import { streamUsage } from "@/lib/domain/stream-usage";
import { portalRoute } from "../../portal-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = portalRoute({}, async ({ db, user }) => streamUsage(db, user.accountId));
