import type { Metadata } from "next";
import { LogsPanel } from "@/components/portal/logs/logs-panel";
import { PageHeader } from "@/components/ui/page";
import { requirePortalUser } from "@/lib/auth/portal-user";
import { endpointsAndKeys } from "@/lib/domain/usage";
import { portalDb } from "@/lib/server/portal-db";
import { STATUS_CLASSES } from "@/lib/shared/usage-types";
import { ERROR_STATUS } from "@/lib/api/errors";

const ERROR_CODES = Object.keys(ERROR_STATUS).sort();

export const metadata: Metadata = { title: "Logs" };
export const dynamic = "force-dynamic";

export default async function LogsPage({ searchParams }: { searchParams: Promise<{ request_id?: string }> }) {
  const user = await requirePortalUser({ from: "/dashboard/logs" });
  const [{ endpoints, keys }, { request_id }] = await Promise.all([
    endpointsAndKeys(await portalDb(), user.accountId),
    searchParams,
  ]);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Logs"
        description="Every call your keys make, as the API metered it, newest first: status, error code, latency, the rate-limit state after it and, for an error, the body the caller got. Times are UTC."
      />
      <LogsPanel
        keys={keys}
        endpoints={endpoints}
        statusClasses={STATUS_CLASSES}
        errorCodes={ERROR_CODES}
        initialRequestId={typeof request_id === "string" ? request_id.slice(0, 128) : ""}
      />
    </div>
  );
}
