import type { Metadata } from "next";
import { DECIDED_COLUMNS, PENDING_COLUMNS } from "@/components/admin/access-request-columns";
import { requireAdmin } from "@/components/admin/require-admin";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader, Section } from "@/components/ui/page";
import { listAllAccessRequests } from "@/lib/domain/access-requests";
import { ACCESS_PROMISE_BUSINESS_DAYS } from "@/lib/domain/business-days";
import { portalDb } from "@/lib/server/portal-db";

export const metadata: Metadata = { title: "API access requests" };
export const dynamic = "force-dynamic";

export default async function AccessRequestsAdminPage() {
  await requireAdmin("/admin/access-requests");
  const requests = await listAllAccessRequests(await portalDb());
  const pending = requests.filter((r) => r.status === "pending");
  const overdue = pending.filter((r) => r.overdue).length;
  const decided = requests.filter((r) => r.status !== "pending").reverse();
  return (
    <div className="space-y-8">
      <PageHeader
        title="API access requests"
        description={
          <>
            The promise is an answer within 1–{ACCESS_PROMISE_BUSINESS_DAYS} business days (Monday to Friday, UTC); a
            request older than that is overdue. Approve issues an <code>svc_sk_live_</code> key that the requester sees
            once on their Access requests page; it is never shown here.
          </>
        }
      />
      <Section id="pending-h" title={`Queue (${pending.length}${overdue ? `, ${overdue} overdue` : ""})`}>
        <DataTable
          caption="Pending access requests"
          columns={PENDING_COLUMNS}
          rows={pending}
          rowKey={(r) => r.id}
          rowTone={(r) => (r.overdue ? "bad" : undefined)}
          empty={
            <EmptyState title="No pending requests.">New requests appear here as requesters send them.</EmptyState>
          }
          wrap
        />
      </Section>
      <Section id="decided-h" title="Decided">
        <DataTable
          caption="Decided access requests"
          columns={DECIDED_COLUMNS}
          rows={decided}
          rowKey={(r) => r.id}
          empty={<EmptyState title="No decisions yet." />}
          wrap
        />
      </Section>
    </div>
  );
}
