/** The filtered audit rows as a CSV download, streamed. */
import { auditCsvStream } from "@/lib/server/admin-audit-csv";
import { auditWhere } from "@/lib/domain/admin-audit";
import { auditQuery } from "@/lib/portal/admin-schemas";
import { portalRoute } from "../../../portal/portal-route";

export const runtime = "nodejs";

export const GET = portalRoute({ admin: true, query: auditQuery }, async ({ db, query, requestId }) => {
  auditWhere(query); // a bad filter is a 400 before the download starts
  return new Response(await auditCsvStream(db, query), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="audit-${new Date().toISOString().slice(0, 10)}.csv"`,
      "cache-control": "no-store",
      "x-request-id": requestId,
    },
  });
});
