/** The signed-in account's usage summary: series, quota gauges and 429s (lib/domain/usage.ts). */
import { usageSummary } from "@/lib/domain/usage";
import { portalRoute } from "../portal-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = portalRoute({}, async ({ db, user }) => usageSummary(db, user.accountId));
