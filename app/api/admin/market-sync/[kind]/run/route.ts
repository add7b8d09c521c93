/** The admin overview's `Run now`: runs one market-data sync job of a kind at once (docs/market-data.md). */
import { z } from "zod";
import { runMarketSyncNow } from "@/lib/domain/market-sync-status";
import { SYNC_KINDS } from "@/lib/market/sync-schedule";
import { portalRoute } from "../../../../portal/portal-route";
import { asAdmin } from "../../../admin-actor";

export const runtime = "nodejs";

export const POST = portalRoute(
  { admin: true, params: z.object({ kind: z.enum(SYNC_KINDS) }) },
  ({ db, actor, params }) => runMarketSyncNow(db, params.kind, asAdmin(actor)),
);
