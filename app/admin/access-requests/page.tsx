import type { Metadata } from "next";
import Link from "next/link";
import { ActionButton } from "@/components/admin/action-button";
import { utc } from "@/components/admin/format";
import { requireAdmin } from "@/components/admin/require-admin";
import { AdminTable, Cell, Row } from "@/components/admin/table";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader, Section } from "@/components/ui/page";
import { listAllAccessRequests } from "@/lib/domain/access-requests";
import { ACCESS_PROMISE_BUSINESS_DAYS } from "@/lib/domain/business-days";
import { EXPECTED_VOLUMES } from "@/lib/shared/access-volumes";
import { portalDb } from "@/lib/server/portal-db";

export const metadata: Metadata = { title: "API access requests" };
export const dynamic = "force-dynamic";

const days = (n: number) => `${n} business day${n === 1 ? "" : "s"}`;

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
        {pending.length === 0 ? (
          <EmptyState title="No pending requests.">New requests appear here as requesters send them.</EmptyState>
        ) : (
          <AdminTable
            caption="Pending access requests"
            columns={[
              { label: "Company and requester", width: "w-1/4" },
              { label: "Use case" },
              { label: "Expected volume", width: "w-32" },
              { label: "Age", width: "w-36" },
              { label: "Decision", width: "w-56" },
            ]}
          >
            {pending.map((r) => (
              <Row key={r.id} tone={r.overdue ? "bad" : undefined}>
                <Cell label="Company and requester">
                  <span className="block font-medium">{r.company}</span>
                  <Link href={`/admin/accounts/${r.accountId}`} className="text-xs">
                    {r.email}
                  </Link>
                </Cell>
                <Cell label="Use case">{r.useCase}</Cell>
                <Cell label="Expected volume">{EXPECTED_VOLUMES[r.expectedVolume] ?? r.expectedVolume}</Cell>
                <Cell label="Age">
                  <span className="tabular-nums">{days(r.ageBusinessDays)}</span>
                  {r.overdue ? (
                    <Badge tone="bad" className="ml-1">
                      Overdue
                    </Badge>
                  ) : null}
                  <span className="block text-xs text-muted">since {utc(r.createdAt)}</span>
                </Cell>
                <Cell label="Decision" className="space-y-3">
                  <span className="flex flex-wrap gap-2">
                    <ActionButton
                      path={`/api/admin/access-requests/${r.id}/approve`}
                      label="Approve"
                      name={`Approve ${r.company}`}
                      title={`Approve ${r.company}'s request?`}
                      effect={
                        <>
                          Issues a live key (<code>svc_sk_live_</code>) to account {r.email}, shown to them once on
                          their Access requests page (never here), and mails {r.email} that it waits.
                        </>
                      }
                      tone="primary"
                    />
                    <ActionButton
                      path={`/api/admin/access-requests/${r.id}/reject`}
                      label="Reject"
                      name={`Reject ${r.company}`}
                      title={`Reject ${r.company}'s request?`}
                      effect={<>No key is issued. {r.email} sees the reason on their Access requests page.</>}
                      reason
                      tone="danger"
                    />
                  </span>
                </Cell>
              </Row>
            ))}
          </AdminTable>
        )}
      </Section>
      <Section id="decided-h" title="Decided">
        {decided.length === 0 ? (
          <EmptyState title="No decisions yet." />
        ) : (
          <AdminTable
            caption="Decided access requests"
            columns={[
              { label: "Company and requester", width: "w-1/4" },
              { label: "Status", width: "w-28" },
              { label: "Decided", width: "w-40" },
              { label: "Answered in", width: "w-36" },
              { label: "Reason or key" },
            ]}
          >
            {decided.map((r) => (
              <Row key={r.id}>
                <Cell label="Company and requester">
                  <span className="block font-medium">{r.company}</span>
                  <span className="text-xs text-muted">{r.email}</span>
                </Cell>
                <Cell label="Status">
                  <Badge tone={r.status === "approved" ? "ok" : "neutral"}>
                    {r.status === "approved" ? "Approved" : "Rejected"}
                  </Badge>
                </Cell>
                <Cell label="Decided" className="tabular-nums">
                  {utc(r.decidedAt)}
                </Cell>
                <Cell label="Answered in">
                  {days(r.ageBusinessDays)}
                  {r.overdue ? (
                    <Badge tone="bad" className="ml-1">
                      Late
                    </Badge>
                  ) : null}
                </Cell>
                <Cell label="Reason or key">
                  {r.status === "rejected" ? r.reason : r.keyPrefix ? <code>{r.keyPrefix}…</code> : "—"}
                  {r.status === "approved" ? (
                    <span className="block text-xs text-muted">
                      {r.keyWaiting ? "Not yet seen by the requester" : "Seen by the requester"}
                    </span>
                  ) : null}
                </Cell>
              </Row>
            ))}
          </AdminTable>
        )}
      </Section>
    </div>
  );
}
