/** One page of the signed-in account's request log, with filters, request id search, a keyset cursor and error bodies. */
import { loggedErrorBody } from "@/lib/api/logged-error";
import { requestLog } from "@/lib/domain/request-log";
import { requestLogQuery } from "@/lib/portal/request-log-query";
import { portalRoute } from "../../portal-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = portalRoute({ query: requestLogQuery }, async ({ db, user, query: q }) =>
  requestLog(
    db,
    user.accountId,
    {
      keyId: q.key,
      endpointId: q.route,
      status: q.status,
      errorCode: q.error_code,
      symbol: q.symbol,
      requestId: q.request_id,
      from: q.from,
      to: q.to,
      cursor: q.cursor,
      limit: q.limit,
    },
    undefined,
    loggedErrorBody,
  ),
);
