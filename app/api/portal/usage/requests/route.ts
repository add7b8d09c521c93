/** One page of the signed-in account's request log, with filters and a keyset cursor. */
import { requestLog } from "@/lib/domain/usage";
import { requestLogQuery } from "@/lib/portal/request-log-query";
import { portalRoute } from "../../portal-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = portalRoute({ query: requestLogQuery }, async ({ db, user, query: q }) =>
  requestLog(db, user.accountId, {
    keyId: q.key,
    endpointId: q.route,
    status: q.status,
    errorCode: q.error_code,
    symbol: q.symbol,
    from: q.from,
    to: q.to,
    cursor: q.cursor,
    limit: q.limit,
  }),
);
