/** One account: members, plan, keys and 30 days of usage. */
import { accountDetail } from "@/lib/domain/admin-accounts";
import { adminIdParams } from "@/lib/portal/admin-schemas";
import { portalRoute } from "../../../portal/portal-route";

export const runtime = "nodejs";

export const GET = portalRoute({ admin: true, params: adminIdParams }, ({ db, params }) =>
  accountDetail(db, params.id),
);
